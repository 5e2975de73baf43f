import { randomUUID } from 'node:crypto';
import type { TestApp } from './app';
import { addMember, newOrg, newProject, newUser, type TestOrg, type TestUser, uniq } from './factories';

/** Test helpers for work-tracking specs: issue rows seeded directly, explicit project grants. */
export interface Seed {
  title?: string;
  description?: string | null;
  status?: string;
  priority?: number;
  assigneeId?: string | null;
  assigneeIds?: string[];
  teamId?: string | null;
  milestoneId?: string | null;
  parentId?: string | null;
  dueDate?: string | null;
  archived?: boolean;
  createdAt?: string;
  labelIds?: string[];
}
/** Inserts an issue row directly (numbering through the same counters as the API). */
export async function insertIssue(t: TestApp, orgId: string, projectId: string | null, s: Seed = {}): Promise<{ id: string; number: number; title: string }> {
  const id = randomUUID();
  const seq: Array<{ n: number }> = projectId
    ? await t.db.query(
        'WITH u AS (UPDATE projects SET issue_seq = issue_seq + 1 WHERE org_id = $1 AND id = $2 RETURNING issue_seq) SELECT issue_seq AS n FROM u',
        [orgId, projectId],
      )
    : await t.db.query('WITH u AS (UPDATE organizations SET issue_seq = issue_seq + 1 WHERE id = $1 RETURNING issue_seq) SELECT issue_seq AS n FROM u', [
        orgId,
      ]);
  const number = seq[0].n;
  const title = s.title ?? uniq('issue');
  await t.db.query(
    `INSERT INTO issues (org_id, id, project_id, number, title, description, status, priority, assignee_id, team_id, milestone_id, parent_id, due_date, archived_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, CASE WHEN $14::boolean THEN now() END, coalesce($15::timestamptz, now()), coalesce($15::timestamptz, now()))`,
    [
      orgId,
      id,
      projectId,
      number,
      title,
      s.description ?? null,
      s.status ?? 'backlog',
      s.priority ?? 2,
      s.assigneeId ?? s.assigneeIds?.[0] ?? null,
      s.teamId ?? null,
      s.milestoneId ?? null,
      s.parentId ?? null,
      s.dueDate ?? null,
      !!s.archived,
      s.createdAt ?? null,
    ],
  );
  for (const [position, memberId] of (s.assigneeIds ?? []).entries()) {
    await t.db.query('INSERT INTO issue_assignees (org_id, issue_id, member_id, position) VALUES ($1, $2, $3, $4)', [orgId, id, memberId, position]);
  }
  for (const labelId of s.labelIds ?? []) await t.db.query('INSERT INTO issue_labels (org_id, issue_id, label_id) VALUES ($1, $2, $3)', [orgId, id, labelId]);
  return { id, number, title };
}
/** Grants a member an explicit project access level. */
export async function grant(org: TestOrg, projectId: string, memberId: string, accessLevel: 'view' | 'edit' | 'admin'): Promise<void> {
  await org.owner.http.post(`/api/orgs/${org.id}/projects/${projectId}/members`).send({ memberId, accessLevel }).expect(201);
}

export interface WorkTrackingWorld {
  org: TestOrg;
  /** A second organization (for cross-tenant checks). */
  other: TestOrg;
  /** Plain member: reads every project, writes none. */
  member: TestUser;
  /** Member with `edit` on `proj`. */
  editor: TestUser;
  editorId: string;
  /** Guest with `view` on `proj` only. */
  guest: TestUser;
  guestId: string;
  proj: { id: string; key: string; name: string };
  /** A project with no explicit entries (unreadable for the guest, read-only for members). */
  hidden: { id: string; key: string; name: string };
}

/** The organization most work-tracking specs start from. */
export async function workTrackingWorld(t: TestApp): Promise<WorkTrackingWorld> {
  const org = await newOrg(t);
  const other = await newOrg(t);
  const member = await newUser(t, 'member');
  const editor = await newUser(t, 'editor');
  const guest = await newUser(t, 'guest');
  await addMember(t, org, member, 'member');
  const editorId = await addMember(t, org, editor, 'member');
  const guestId = await addMember(t, org, guest, 'guest');
  const proj = await newProject(t, org);
  const hidden = await newProject(t, org);
  await grant(org, proj.id, editorId, 'edit');
  await grant(org, proj.id, guestId, 'view');
  return { org, other, member, editor, editorId, guest, guestId, proj, hidden };
}

/** Timeline rows of one issue and action (activity is written after commit, so poll with `eventually`). */
export const activityRows = (t: TestApp, orgId: string, issueId: string, action: string) =>
  t.db.query('SELECT metadata FROM activity_events WHERE org_id = $1 AND issue_id = $2 AND action = $3', [orgId, issueId, action]) as Promise<
    Array<{ metadata: any }>
  >;

/**
 * Polls `fn` until it holds, for up to 30 s (or `timeoutMs`): the bound only ends a wait whose
 * condition never comes, so it is generous for a machine running two test files at once.
 */
export async function eventually(fn: () => Promise<boolean>, timeoutMs = 30_000): Promise<boolean> {
  for (let i = 0; i < timeoutMs / 50; i++) {
    if (await fn()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}
