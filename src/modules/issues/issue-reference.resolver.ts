import { Injectable } from '@nestjs/common';
import { AccessPolicyService, type IssueRef } from '../../common/access/access-policy.service';
import type { Actor } from '../../common/auth/principal';
import { DomainError } from '../../common/errors/domain-error';
import { isUuid } from '../../common/http/validation';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import type { AccessLevel } from '../../common/access/access-level';
import type { Tx } from '../../database/sql.service';
import { type IssueRefRow, IssuesRepository } from './issues.repository';

export const ACCEPTED_REFERENCE_FORMS = ['<uuid>', '<number>', '#<number>', '<ORG_PREFIX>-<number>', 'TSK-<number>', '<PROJECT_KEY>-<number>'];
const MAX_INT = 2147483647;
const NUMBER_RE = /^#?([0-9]{1,20})$/;
const PREFIXED_RE = /^([A-Za-z][A-Za-z0-9]{0,19})-([0-9]{1,20})$/;

type Row = IssueRefRow;

export type ResolvedIssue = IssueRef & { accessLevel: AccessLevel };

const invalid = (reference: string) =>
  new DomainError(400, 'invalid_reference', 'Invalid issue reference', { reference, accepted_forms: ACCEPTED_REFERENCE_FORMS });
const notFound = (reference: string) => new DomainError(404, 'reference_not_found', 'Issue not found', { reference });

/** A reference, trimmed, and its form. */
export type ParsedIssueReference = { ref: string } & (
  { kind: 'uuid'; id: string } | { kind: 'number'; digits: string } | { kind: 'prefixed'; prefix: string; digits: string }
);

/** The form of a reference; over 100 characters (checked before any pattern), blank or no accepted form: 400 `invalid_reference`. */
export function parseIssueReference(reference: unknown): ParsedIssueReference {
  const ref = typeof reference === 'string' ? reference.trim() : '';
  if (ref.length > 100 || !ref) throw invalid(String(reference).slice(0, 100));
  if (isUuid(ref)) return { ref, kind: 'uuid', id: ref.toLowerCase() };
  const bare = NUMBER_RE.exec(ref);
  if (bare) return { ref, kind: 'number', digits: bare[1] };
  const pre = PREFIXED_RE.exec(ref);
  if (!pre) throw invalid(ref);
  return { ref, kind: 'prefixed', prefix: pre[1].toUpperCase(), digits: pre[2] };
}

/**
 * The one resolver of issue references (issue detail, initiative issue links): a UUID, a bare
 * number, `#<n>`, `<ORG_PREFIX>-<n>`, `TSK-<n>` or `<PROJECT_KEY>-<n>` (prefixes case-insensitive).
 * Number forms without a project key match every issue with that number (project and projectless).
 * A prefix that is a project key means that project first, even when it equals the organization
 * prefix. Candidates the caller cannot read are dropped BEFORE uniqueness is decided, and never
 * appear in errors. Titles never match.
 */
@Injectable()
export class IssueReferenceResolver {
  constructor(
    private readonly organizations: OrganizationsRepository,
    private readonly issues: IssuesRepository,
    private readonly access: AccessPolicyService,
  ) {}

  /** Inside a transaction pass it (`m`): the look-ups then run on its connection. */
  async resolve(actor: Actor, reference: string, m?: Tx): Promise<ResolvedIssue> {
    const parsed = parseIssueReference(reference);
    return this.pick(actor, parsed.ref, await this.rowsOf(actor, parsed, m), m);
  }

  /**
   * Every readable issue `reference` names, for the search's jump to an issue: none when it is not
   * a reference form or names nothing readable; several when a number form is ambiguous. The same
   * forms and rules as `resolve`, without its errors.
   */
  async candidates(actor: Actor, reference: string): Promise<ResolvedIssue[]> {
    let parsed: ParsedIssueReference;
    try {
      parsed = parseIssueReference(reference);
    } catch {
      return [];
    }
    return (await this.readable(actor, await this.rowsOf(actor, parsed))).map(toResolved);
  }

  /** The issues a parsed reference names before access is applied. */
  private async rowsOf(actor: Actor, parsed: ParsedIssueReference, m?: Tx): Promise<Row[]> {
    if (parsed.kind === 'uuid') return this.issues.byId(actor.orgId, parsed.id, m);
    if (parsed.kind === 'number') return this.byNumber(actor.orgId, parsed.digits, m);
    const n = Number(parsed.digits);
    if (n > MAX_INT) return []; // no issue has such a number, whichever prefix this is
    // The project of that key (one row, with its issue of that number, if any), in one statement.
    const inProject = await this.issues.inProjectByKey(actor.orgId, parsed.prefix, n, m);
    if (inProject.length) return inProject.filter((r): r is typeof r & { id: string } => r.id !== null);
    const orgPrefix = await this.organizations.issuePrefix(actor.orgId, m);
    if (parsed.prefix === 'TSK' || parsed.prefix === orgPrefix) return this.byNumber(actor.orgId, parsed.digits, m);
    return [];
  }

  private byNumber(orgId: string, digits: string, m?: Tx): Promise<Row[]> {
    const n = Number(digits);
    if (n < 1 || n > MAX_INT) return Promise.resolve([]);
    return this.issues.byNumber(orgId, n, m);
  }

  /** The rows the caller may read, with the level of each. */
  private async readable(actor: Actor, rows: Row[], m?: Tx): Promise<Array<Row & { level: AccessLevel }>> {
    const out: Array<Row & { level: AccessLevel }> = [];
    for (const r of rows) {
      const level = await this.access.issueLevel(actor, r.project_id, m);
      if (level) out.push({ ...r, level });
    }
    return out;
  }

  private async pick(actor: Actor, ref: string, rows: Row[], m?: Tx): Promise<ResolvedIssue> {
    const readable = await this.readable(actor, rows, m);
    if (!readable.length) throw notFound(ref);
    if (readable.length > 1) {
      throw new DomainError(409, 'ambiguous_reference', `Issue reference ${ref} matches ${readable.length} issues; use a UUID or a project key reference`, {
        reference: ref,
        candidates: readable.map((r) => ({ id: r.id, identifier: r.key ? `${r.key}-${r.number}` : null, title: r.title })),
      });
    }
    return toResolved(readable[0]);
  }
}

function toResolved(r: Row & { level: AccessLevel }): ResolvedIssue {
  return { id: r.id, projectId: r.project_id, number: r.number, title: r.title, status: r.status, archivedAt: r.archived_at, accessLevel: r.level };
}
