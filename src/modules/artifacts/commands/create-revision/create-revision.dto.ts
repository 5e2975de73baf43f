import { Allow } from 'class-validator';
import { Alias } from '../../../../common/http/aliases';

/** A new revision, fenced by the exact current revision (id or number). Checked by the handler. */
export class CreateRevisionDto {
  /** The current revision's id as the writer last read it (this or expected_revision_number is required) */
  @Alias('expectedRevisionId') expected_revision_id?: string;
  /** The current revision's number as the writer last read it */
  @Alias('expectedRevisionNumber') expected_revision_number?: number;
  /** New title (1..200 UTF-8 bytes); omitted: unchanged */
  @Allow() title?: string;
  /** New content; omitted: carried forward from the current revision */
  @Allow() content?: string;
  /** `markdown` or `html` for the new content */
  @Alias('contentFormat') content_format?: 'markdown' | 'html';
  /** Omitted: inherit the current source; a UUID: set or replace; null: clear */
  @Alias('sourceExternalReferenceLinkId') source_external_reference_link_id?: string | null;
}
