import { Controller, Delete, HttpCode } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentActor, HumanOnly, OrgScoped } from '../../common/auth/decorators';
import type { Actor } from '../../common/auth/principal';
import { ChatDisconnected } from './chat-integrations.response';
import { DisconnectChatMemberCommand } from './commands/disconnect-chat-member/disconnect-chat-member.command';

/** A member's chat provider link (Google Chat). See ChatIntegrationsModule. */
@ApiTags('chat-integrations')
@OrgScoped()
@HumanOnly()
@Controller('api/orgs/:id/integrations/google-chat')
export class ChatIntegrationsController {
  constructor(private readonly commands: CommandBus) {}

  @Delete('member')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Disconnect the calling member from Google Chat (human web session only)',
    description: 'Removes the caller’s own Google Chat link; the same `{ ok: true }` when there is none. Agents (API keys, OAuth tokens) get 403.',
  })
  @ApiOkResponse({ type: ChatDisconnected, description: '`{ ok: true }`' })
  async disconnect(@CurrentActor() actor: Actor): Promise<ChatDisconnected> {
    await this.commands.execute(new DisconnectChatMemberCommand(actor, 'google_chat'));
    return { ok: true };
  }
}
