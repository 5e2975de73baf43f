import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/config';
import { type BesideRead, DataVersionsRepository, PROJECTLESS_SUBJECT, type SubjectRead } from './data-versions.repository';

/**
 * Read models with a per-organization version (migrations/1765000000000-data-versions.ts;
 * 'heartbeat': 1765650000000; 'heartbeat_work': 1765770000000; 'search': 1765780000000).
 */
export type DataScope = 'issues' | 'strategy' | 'heartbeat' | 'heartbeat_work' | 'search';
/**
 * Versions by subject (migration 1765790000000): `issues_visible`, the issues, projects, columns
 * and assignments of the subject's readable projects (for a reader of every project: the
 * organization's `issues` version); `attention_of`, the subject member's notifications and
 * attention requests.
 */
export type SubjectScope = 'issues_visible' | 'attention_of';
/** Every version scope: the data_versions scopes, the subject scopes and the dependency graph's own version. */
export type VersionScope = DataScope | SubjectScope | 'dependency_graph';

export const SUBJECT_SCOPES: readonly VersionScope[] = ['issues_visible', 'attention_of'];

/** Whose subject versions a read model's result is trusted under: what the caller reads, and who it is. */
export interface VersionSubject {
  /** Readable project ids, or null for every project. */
  readable: readonly string[] | null;
  /** Whether projectless issues are readable. */
  projectless: boolean;
  member: string;
}

/** A subject's identity (kept results reuse an outer computation's versions only for the same subject). */
export const subjectKey = (s: VersionSubject): string =>
  `${s.member}|${s.projectless ? 'p' : '-'}|${s.readable === null ? '*' : [...s.readable].sort().join(',')}`;

/**
 * The current version of an organization's read model, bumped by triggers at the COMMIT of every
 * transaction that changes what the model reads (a sum of stripe counters: see the migration). Read it BEFORE computing a result and store the
 * result under it (VersionedCache): the result is then never older than its version.
 */
@Injectable()
export class DataVersions {
  constructor(
    private readonly versions: DataVersionsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Each scope's version (a data_versions scope: the sum of its stripe counters; a subject scope:
   * the sum over `subject`'s subjects), the scopes read together in one statement (one snapshot);
   * null when any is missing or READ_CACHE is off (then nothing may be kept). The dependency graph
   * has a version of its own and is read alone. With the caller's `beside` read in the same
   * statement (alone when no versions are read: READ_CACHE off, the dependency graph).
   */
  async eachWith(
    orgId: string,
    scopes: readonly VersionScope[],
    subject?: VersionSubject,
    beside?: BesideRead,
  ): Promise<{ versions: ReadonlyMap<VersionScope, string> | null; beside: string | null }> {
    const alone = async () => (beside ? this.besideAlone(orgId, beside) : null);
    if (!this.config.readCache) return { versions: null, beside: await alone() };
    if (scopes.includes('dependency_graph')) {
      if (scopes.length !== 1) throw new Error('The dependency graph version is read alone');
      const [v, b] = await Promise.all([this.dependencyGraph(orgId), alone()]);
      return { versions: v === null ? null : new Map([['dependency_graph', v]]), beside: b };
    }
    const plain = scopes.filter((s) => !SUBJECT_SCOPES.includes(s));
    const subjects: SubjectRead[] = [];
    // a subject version names its subjects (a digest of them): equal versions are versions of the same subjects
    const named = new Map<VersionScope, string>();
    for (const s of scopes.filter((x) => SUBJECT_SCOPES.includes(x))) {
      if (!subject) throw new Error(`The ${s} version needs a subject`);
      if (s === 'attention_of') {
        subjects.push({ name: s, kind: 'member', subjects: [subject.member] });
        named.set(s, subject.member);
      } else if (subject.readable === null) {
        // a reader of every project: the organization's issues version (bumped by every change the project versions count)
        plain.push('issues');
        named.set(s, 'all');
      } else {
        const projects = [...subject.readable, ...(subject.projectless ? [PROJECTLESS_SUBJECT] : [])].sort();
        subjects.push({ name: s, kind: 'project', subjects: projects });
        named.set(s, createHash('sha256').update(projects.join(',')).digest('base64url').slice(0, 16));
      }
    }
    const rows = await this.versions.scopeVersions(orgId, [...new Set(plain)], subjects, beside);
    const got = new Map(rows.filter((r) => r.scope !== null).map((r) => [r.scope as VersionScope, r.version!]));
    const b = beside ? (rows.find((r) => r.scope === null)?.version ?? null) : null;
    if (named.get('issues_visible') === 'all' && got.has('issues')) got.set('issues_visible', got.get('issues')!);
    if (scopes.some((s) => !got.has(s))) return { versions: null, beside: b };
    return { versions: new Map(scopes.map((s) => [s, named.has(s) ? `${named.get(s)}:${got.get(s)}` : got.get(s)!])), beside: b };
  }

  /** A beside read alone. */
  besideAlone(orgId: string, read: BesideRead): Promise<string | null> {
    return this.versions.beside(orgId, read);
  }

  /**
   * The organization's dependency-graph version (migration 1764900000000: bumped only by changes
   * the chain view reads, so ordinary issue writes keep chain pages), or null as above.
   */
  async dependencyGraph(orgId: string): Promise<string | null> {
    if (!this.config.readCache) return null;
    return (await this.versions.dependencyGraph(orgId)) ?? null;
  }
}
