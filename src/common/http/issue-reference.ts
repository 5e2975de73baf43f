import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiConflictResponse, ApiParam } from '@nestjs/swagger';

/** Metadata key: the path parameter of the route that names an issue by reference. */
export const ISSUE_REFERENCE_PARAM = 'http:issue-reference-param';

export const ISSUE_REFERENCE_DESCRIPTION =
  'Issue reference: UUID, `12`, `#12`, `<ORG_PREFIX>-12`, `TSK-12` or `<PROJECT_KEY>-12`. ' +
  'Errors: 400 `invalid_reference`, 404 `reference_not_found` (also for an issue the caller cannot read), 409 `ambiguous_reference`';

/**
 * The route's issue path parameter (`issueId` by default) takes every reference form of the issue
 * detail. Before the handler runs, the issues module's `IssueReferenceStep` resolves it with
 * the detail's resolver (same errors, unreadable issues concealed as 404) and puts the canonical
 * UUID in its place, so handlers and their `UuidParamPipe` only ever see UUIDs. On a class: every
 * route of the controller (all must have the parameter); on a method: that route.
 */
export const IssueAddressed = (param = 'issueId') =>
  applyDecorators(
    SetMetadata(ISSUE_REFERENCE_PARAM, param),
    ApiParam({ name: param, description: ISSUE_REFERENCE_DESCRIPTION }),
    ApiConflictResponse({
      description: '`ambiguous_reference`: the reference matches several readable issues (`candidates`: `{ id, identifier, title }`)',
      schema: { $ref: '#/components/schemas/Error' },
    }),
  );
