import { applyDecorators } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiForbiddenResponse,
  ApiInternalServerErrorResponse,
  ApiNotFoundResponse,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { LinkErrorResponse } from './initiatives.response';

/** The six documented error responses of the link POST routes, all `{ error, code }`. */
export const ApiLinkErrors = (what: 'issue' | 'milestone' | 'project' | 'kpi' | 'initiative') =>
  applyDecorators(
    ApiBadRequestResponse({ type: LinkErrorResponse, description: `Malformed body or ${what} identifier (\`validation_failed\`, \`invalid_reference\`)` }),
    ApiUnauthorizedResponse({ type: LinkErrorResponse, description: 'Missing or invalid credential' }),
    ApiForbiddenResponse({
      type: LinkErrorResponse,
      description: 'Readable but not writable: edit/admin needed on every project involved (owner/admin for organization-level records)',
    }),
    ApiNotFoundResponse({
      type: LinkErrorResponse,
      description: `Unreadable or missing initiative, target or ${what} (concealed), or a ${what} outside the initiative's projects (\`${what}_out_of_scope\`)`,
    }),
    ApiConflictResponse({
      type: LinkErrorResponse,
      description: 'Ambiguous reference (`ambiguous_reference`, `ambiguous_milestone`) with readable candidates, or `kpi_impact_exists`',
    }),
    ApiInternalServerErrorResponse({ type: LinkErrorResponse, description: 'Resolver failure' }),
  );
