import { Allow } from 'class-validator';
import { Alias, AliasesIn } from '../../../../common/http/aliases';

/** One link target: an issue (UUID or any issue reference form) or a project (UUID). */
export class ArtifactLinkTargetDto {
  /** `issue` or `project` */
  @Alias('targetType') target_type: 'issue' | 'project';
  /** Issue (any reference form) or project UUID */
  @Alias('targetId') target_id: string;
}

/** Values are checked by artifact-input.ts (one readable 400 per problem; content over 256 KiB 413). */
export class CreateArtifactDto {
  /** `prd`, `implementation_plan`, `test_plan`, `decision`, `research` or `release_checklist` */
  @Allow() type: string;
  /** 1..200 UTF-8 bytes (trimmed) */
  @Allow() title: string;
  /** Markdown or HTML, stored as sanitized HTML; at most 256 KiB */
  @Allow() content: string;
  /** `markdown` or `html`; omitted: HTML-looking content is html, the rest markdown */
  @Alias('contentFormat') content_format?: 'markdown' | 'html';
  /** Issues and projects to link in the same transaction (edit access on each) */
  @AliasesIn(() => ArtifactLinkTargetDto) links?: ArtifactLinkTargetDto[];
  /** External-reference link the content came from (immutable pointer snapshot) */
  @Alias('sourceExternalReferenceLinkId') source_external_reference_link_id?: string | null;
}
