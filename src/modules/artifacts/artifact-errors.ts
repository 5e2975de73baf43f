import { Errors } from '../../common/errors/domain-error';
import { isUniqueViolation } from '../../common/errors/pg-errors';

/** The 409 of a link the database refused as a duplicate or a taken one-per-issue slot; other errors unchanged. */
export function linkConflict(e: unknown): unknown {
  if (isUniqueViolation(e, 'artifact_links_issue_slot_uq'))
    return Errors.conflict('This issue already has an artifact of this type (at most one prd and one implementation_plan per issue)', 'artifact_type_taken');
  if (isUniqueViolation(e, 'artifact_links_one_issue_uq'))
    return Errors.conflict('A prd or implementation_plan belongs to one issue only', 'artifact_issue_taken');
  if (isUniqueViolation(e, 'artifact_links_issue_uq') || isUniqueViolation(e, 'artifact_links_project_uq'))
    return Errors.conflict('The artifact is already linked to this target', 'artifact_link_exists');
  return e;
}
