import { Body, Controller, Get, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CurrentPrincipal, Public, SessionWrite } from '../../common/auth/decorators';
import type { Principal } from '../../common/auth/principal';
import { SESSION_COOKIE } from '../../common/auth/tokens';
import { AuthContextEnvelope, SuccessResponse, UserEnvelope } from './accounts.response';
import { LoginCommand } from './commands/login/login.command';
import { LoginDto } from './commands/login/login.dto';
import { LogoutCommand } from './commands/logout/logout.command';
import { SignupCommand } from './commands/signup/signup.command';
import { SignupDto } from './commands/signup/signup.dto';
import { GetAuthContextQuery } from './queries/get-auth-context/get-auth-context.query';
import { CredentialLimits } from './credential-limits.service';
import { SessionService } from './session.service';
import { toUserResponse } from './user.mapper';
import type { UserEntity } from './entities/user.entity';
import { ApiErrors } from '../../common/openapi/decorators';

@ApiTags('auth')
@Controller('api/auth')
export class AccountsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly sessions: SessionService,
    private readonly limits: CredentialLimits,
  ) {}

  @Public()
  @Post('signup')
  @ApiOperation({ summary: 'Create an account and start a web session (sets the session cookie)' })
  @ApiCreatedResponse({ type: UserEnvelope })
  @ApiErrors({
    409: '`email_taken`: an account with this email exists',
    429: 'Too many attempts from this client address',
    503: 'The rate limiter cannot answer (`RATE_LIMIT_CHECK_FAILED`)',
  })
  async signup(@Body() dto: SignupDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<UserEnvelope> {
    await this.limits.signupAttempt(req.ip);
    const email = dto.email.trim();
    const displayName = (dto.display_name ?? email.split('@')[0]).trim() || email;
    const { user, token } = await this.commands.execute<SignupCommand, { user: UserEntity; token: string }>(
      new SignupCommand(email, dto.password, displayName),
    );
    this.sessions.setCookie(reply, token);
    return { user: toUserResponse(user) };
  }

  @Public()
  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Start a web session (sets the session cookie); 401 on bad credentials' })
  @ApiOkResponse({ type: UserEnvelope })
  @ApiResponse({ status: 401, description: 'Invalid email or password', schema: { $ref: '#/components/schemas/Error' } })
  @ApiErrors({
    429: 'Too many attempts from this client address, or too many failed logins for this account',
    503: 'The rate limiter cannot answer (`RATE_LIMIT_CHECK_FAILED`)',
  })
  async login(@Body() dto: LoginDto, @Req() req: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<UserEnvelope> {
    await this.limits.loginAttempt(req.ip, dto.email);
    const { user, token } = await this.commands.execute<LoginCommand, { user: UserEntity; token: string }>(new LoginCommand(dto.email.trim(), dto.password));
    await this.limits.loginSucceeded(dto.email);
    this.sessions.setCookie(reply, token);
    return { user: toUserResponse(user) };
  }

  @Public()
  @SessionWrite()
  @Post('logout')
  @HttpCode(200)
  @ApiOperation({ summary: 'End the web session (server-side) and clear the cookie' })
  @ApiOkResponse({ type: SuccessResponse })
  @ApiResponse({
    status: 403,
    description: 'Cross-site request refused (Origin/Referer not the service or a trusted origin)',
    schema: { $ref: '#/components/schemas/Error' },
  })
  async logout(
    @Req() req: FastifyRequest & { cookies?: Record<string, string | undefined> },
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SuccessResponse> {
    await this.commands.execute(new LogoutCommand(req.cookies?.[SESSION_COOKIE]));
    this.sessions.clearCookie(reply);
    return { success: true };
  }

  @Get('me')
  @ApiOperation({ summary: 'The caller’s auth context: type, ids, live role and (agents) live project access' })
  @ApiQuery({ name: 'orgId', required: false, description: 'Humans: the organization to describe (default: the first joined)' })
  @ApiOkResponse({ type: AuthContextEnvelope })
  async me(@CurrentPrincipal() principal: Principal, @Query('orgId') orgId?: string): Promise<AuthContextEnvelope> {
    return { auth: await this.queries.execute(new GetAuthContextQuery(principal, typeof orgId === 'string' ? orgId : undefined)) };
  }
}
