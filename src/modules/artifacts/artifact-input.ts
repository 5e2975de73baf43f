import { createHash } from 'node:crypto';
import { DomainError, Errors } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import { looksLikeHtml, sanitizeRichText } from '../comments/comment-body';

export const ARTIFACT_TYPES = ['prd', 'implementation_plan', 'test_plan', 'decision', 'research', 'release_checklist'] as const;
export type ArtifactType = (typeof ARTIFACT_TYPES)[number];
export const CONTENT_FORMATS = ['markdown', 'html'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];
export const LINK_TARGET_TYPES = ['issue', 'project'] as const;
export type LinkTargetType = (typeof LINK_TARGET_TYPES)[number];
/** Types of which an issue holds at most one, each linked to that one issue only. */
export const ONE_PER_ISSUE: readonly ArtifactType[] = ['prd', 'implementation_plan'];

export const TITLE_MAX_BYTES = 200;
/** Stored revision content (sanitized HTML) and raw content sent: at most 256 KiB (413 above). */
export const CONTENT_MAX_BYTES = 256 * 1024;
export const MAX_LINKS_ON_CREATE = 50;
export const PROJECTIONS = ['source_provenance_v1'] as const;

/** The immutable pointer snapshot of an external-reference link a revision was written from. */
export interface SourceSnapshot {
  linkId: string;
  externalReferenceId: string;
  targetType: LinkTargetType;
  targetId: string;
  canonicalUrl: string;
  provider: string;
  objectType: string;
  provenance: string;
  label: string | null;
}

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

export function artifactType(v: unknown): ArtifactType {
  if (typeof v !== 'string' || !(ARTIFACT_TYPES as readonly string[]).includes(v))
    throw Errors.validation(`type must be one of ${ARTIFACT_TYPES.join(', ')}`, { field: 'type' });
  return v as ArtifactType;
}

/** 1..200 UTF-8 bytes after trimming. */
export function artifactTitle(v: unknown): string {
  if (typeof v !== 'string') throw Errors.validation('title must be a string', { field: 'title' });
  const t = v.trim();
  if (!t) throw Errors.validation('title must not be blank', { field: 'title' });
  if (bytes(t) > TITLE_MAX_BYTES) throw Errors.validation(`title must be at most ${TITLE_MAX_BYTES} UTF-8 bytes`, { field: 'title' });
  return t;
}

export function contentFormat(v: unknown): ContentFormat | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !(CONTENT_FORMATS as readonly string[]).includes(v))
    throw Errors.validation(`content_format must be one of ${CONTENT_FORMATS.join(', ')}`, { field: 'content_format' });
  return v as ContentFormat;
}

/** Sanitized content with its format and SHA-256 digest (hex of the stored UTF-8 bytes). */
export interface PreparedContent {
  content: string;
  format: ContentFormat;
  digest: string;
}

export const digestOf = (content: string): string => createHash('sha256').update(content, 'utf8').digest('hex');

/**
 * Raw content rendered with the comment sanitizer's rules: `markdown` rendered then sanitized,
 * `html` sanitized; without a format, HTML-looking content is `html`, the rest `markdown`. Over
 * 256 KiB as sent or as stored: 413.
 */
export function prepareContent(raw: unknown, format: ContentFormat | undefined): PreparedContent {
  if (typeof raw !== 'string') throw Errors.validation('content must be a string', { field: 'content' });
  if (raw.length > CONTENT_MAX_BYTES || bytes(raw) > CONTENT_MAX_BYTES) throw tooLarge();
  const f = format ?? (looksLikeHtml(raw) ? 'html' : 'markdown');
  const content = sanitizeRichText(raw, f);
  if (bytes(content) > CONTENT_MAX_BYTES) throw tooLarge();
  return { content, format: f, digest: digestOf(content) };
}

const tooLarge = () => new DomainError(413, 'payload_too_large', `content must be at most ${CONTENT_MAX_BYTES} bytes (256 KiB)`, { field: 'content' });

/** A link target as sent: `{ target_type, target_id }` (issue ids in any reference form). */
export function linkTarget(v: unknown, field = 'links[]'): { type: LinkTargetType; id: string } {
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw Errors.validation(`${field} must be an object { target_type, target_id }`);
  const o = v as Record<string, unknown>;
  const type = o.target_type ?? o.targetType;
  const id = o.target_id ?? o.targetId;
  if (typeof type !== 'string' || !(LINK_TARGET_TYPES as readonly string[]).includes(type))
    throw Errors.validation(`${field}.target_type must be one of ${LINK_TARGET_TYPES.join(', ')}`);
  if (typeof id !== 'string' || !id.trim()) throw Errors.validation(`${field}.target_id is required`);
  return { type: type as LinkTargetType, id: id.trim() };
}

export function linkTargets(v: unknown): Array<{ type: LinkTargetType; id: string }> {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw Errors.validation('links must be an array');
  if (v.length > MAX_LINKS_ON_CREATE) throw Errors.validation(`links may hold at most ${MAX_LINKS_ON_CREATE} targets`);
  return v.map((x, i) => linkTarget(x, `links[${i}]`));
}

/** Source link id: absent (undefined), null (clear) or a UUID. */
export function sourceLinkId(v: unknown): string | null | undefined {
  if (v === undefined || v === null) return v;
  if (!isUuid(v)) throw Errors.validation('source_external_reference_link_id must be a UUID or null', { field: 'source_external_reference_link_id' });
  return v.toLowerCase();
}

/** `projection`: absent, or exactly `source_provenance_v1` once; unknown or repeated: 400. */
export function parseProjection(v: unknown): { sourceProvenance: boolean } {
  if (v === undefined) return { sourceProvenance: false };
  if (Array.isArray(v)) throw Errors.validation('projection must be given once', { field: 'projection' });
  const parts = typeof v === 'string' ? v.split(',', 3).map((s) => s.trim()) : [''];
  if (parts.length !== 1 || !(PROJECTIONS as readonly string[]).includes(parts[0]))
    throw Errors.validation(`Unknown projection; accepted: ${PROJECTIONS.join(', ')}`, { field: 'projection' });
  return { sourceProvenance: true };
}
