import { randomUUID } from 'node:crypto';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isEmail } from 'class-validator';
import { Actor, type AgentPrincipal } from '../../src/common/auth/principal';
import { DomainError } from '../../src/common/errors/domain-error';
import { HEX_COLOR_RE } from '../../src/common/http/input';
import { constraintMessages, isUuid } from '../../src/common/http/validation';
import { derivePrefix } from '../../src/modules/organizations/organization.mapper';
import { slugify } from '../../src/common/naming/slug';
import { parseRuleInput } from '../../src/modules/automation/automation-rule-input';
import { conditionsMatch } from '../../src/modules/automation/automation-rule.model';
import {
  cleanCommentBody,
  COMMENT_BODY_MAX,
  hasVisibleContent,
  looksLikeHtml,
  PreparedCommentBody,
  renderCommentBody,
} from '../../src/modules/comments/comment-body';
import { cleanSourceMetadata, parseMentionRequests } from '../../src/modules/comments/comment-writer.service';
import { issueNumberInQuery, likePattern, parseIssueListParams, parseStatuses, Q_MAX } from '../../src/modules/issue-list/list-params';
import { parseDate, parseIssueFields, parseTitle, TITLE_MAX } from '../../src/modules/issues/issue-input';
import { parseIssueReference } from '../../src/modules/issues/issue-reference.resolver';
import { parseInclude } from '../../src/modules/issues/queries/get-issue/get-issue.handler';
import { applyRecurrence, type RecurrenceInput } from '../../src/modules/issues/recurrence.rules';
import { COLUMN_KEY_RE, deriveKeyBase, PROJECT_KEY_RE } from '../../src/modules/projects/project.rules';
import { SLUG_RE } from '../../src/modules/teams/team-slug';
import { contentDisposition, decideContentType, safeFileName } from '../../src/modules/attachments/attachment-content';
import { parseActivityFilter, parseIssueActivityPage } from '../../src/modules/activity/activity.paging';
import { parsePage } from '../../src/common/http/list';
import { cleanDescription } from '../../src/common/http/input';
import { initiativeInput } from '../../src/modules/initiatives/initiative-input';
import { targetInput } from '../../src/modules/initiatives/target-input';
import { milestoneInput } from '../../src/modules/milestones/milestone-input';
import { parseFilters, parseSort } from '../../src/modules/projects/custom-view.rules';
import {
  checkAllowlistHost,
  checkName,
  evaluatePointer,
  isJsonPointer,
  looksLikeSecret,
  numericValue,
  validateSyncConfig,
} from '../../src/modules/kpi-syncs/sync-config';
import { parseAuth, parseStandard, parseUrl } from '../../src/modules/webhooks/webhook-input';
import { adversarialInputs, MIB } from '../support/adversarial-text';

/**
 * Denial of service through user text (issue 11): every function that parses user text is linear.
 * Each input of the adversarial corpus (test/support/adversarial-text.ts) goes through each function:
 * - text as a route hands it over: 1 MiB per input (request bodies may be 2 MiB), under 100 ms.
 *   Text over a field's limit is refused before any parsing, so those functions answer at once;
 * - functions that only ever see text a length check has let through: at that length.
 *
 * This is the one timed assertion of the suite, asked for by the issue (the project's rule against
 * timed assertions is about benchmarks). To keep it robust on a busy 2-core machine, each call is
 * measured on its own, as the smaller of wall-clock and process CPU time, and an input passes when
 * the BEST of 3 runs is under the bound (the second and third runs, each after a full garbage
 * collection, are made only when the earlier ones were over it). The margin is wide both ways: the
 * functions took at most a few tens of milliseconds per MiB here, on the 2-core machine loaded
 * five to seven times over, while a quadratic one takes seconds to minutes (the old code-span
 * pattern of comment bodies took 12 s on 128 KiB here, so this test failed with it, and would take
 * over ten minutes on 1 MiB). Hot loops avoid global lookups such as `Math.max`: Jest runs the code
 * in a VM context where each one costs about a microsecond.
 *
 * A thrown error must be a DomainError (a 4xx); anything else would be a 500.
 */
const BOUND_MS = 100;
const RUNS = 5;

/** A full garbage collection before a second or third run, so that it is not charged for the garbage of earlier calls. */
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const NOW = new Date('2026-06-10T12:00:00Z');
const orgId = randomUUID();
const agentId = randomUUID();
const agent = new Actor(orgId, agentId, 'agent', 'member', 'Agent', { kind: 'agent', orgId, memberId: agentId } as AgentPrincipal);

const recurrence = (field: keyof RecurrenceInput, s: unknown) =>
  applyRecurrence(null, { recurrenceType: 'weekly', recurrenceMaterializationMode: 'schedule', [field]: s }, null, NOW);

/** Every function that parses user text, called as its route calls it, with the text `s` in one field. */
const TARGETS: Record<string, (s: string) => unknown> = {
  // comments (src/modules/comments)
  'looksLikeHtml (code fences and spans, HTML detection)': (s) => looksLikeHtml(s),
  'renderCommentBody (markdown-it, then sanitize-html)': (s) => renderCommentBody(s),
  'hasVisibleContent (sanitize-html to text)': (s) => hasVisibleContent(s),
  'cleanCommentBody (length first)': (s) => cleanCommentBody(s),
  'PreparedCommentBody.of (comment create and edit, issue comment_body)': (s) => PreparedCommentBody.of(s).value(),
  'cleanSourceMetadata (values and keys)': (s) => [
    attempt(() => cleanSourceMetadata({ harness: s, thread_id: s }, agent)),
    attempt(() => cleanSourceMetadata({ [s]: 'x' }, agent)),
  ],
  'parseMentionRequests (mentions[].member_id)': (s) => parseMentionRequests([{ member_id: s }, { memberId: s }, s], 'mentions'),
  // issues: titles, descriptions, dates, references, recurrence (src/modules/issues)
  parseTitle: (s) => parseTitle(s),
  'parseIssueFields (title, description, dates, status)': (s) => [
    attempt(() => parseIssueFields({ title: s }, 'create')),
    attempt(() => parseIssueFields({ description: s, status: s }, 'update')),
    attempt(() => parseIssueFields({ startDate: s, dueDate: s }, 'update')),
  ],
  parseDate: (s) => parseDate(s, 'dueDate'),
  parseIssueReference: (s) => parseIssueReference(s),
  'parseInclude (issue detail include)': (s) => parseInclude(s),
  'applyRecurrence (recurrence rule fields)': (s) =>
    (['recurrenceType', 'recurrenceMaterializationMode', 'recurrenceTime', 'recurrenceTimezone'] as const).map((f) => attempt(() => recurrence(f, s))),
  'applyRecurrence (recurrenceDays values)': (s) => recurrence('recurrenceDays', [s]),
  // automation rules (src/modules/automation)
  'parseRuleInput (name, conditions, actions)': (s) => [
    attempt(() => parseRuleInput({ name: s, trigger_event: 'issue.created', actions: [{ type: 'close_issue' }] }, 'create')),
    attempt(() => parseRuleInput({ trigger_event: s }, 'update')),
    attempt(() => parseRuleInput({ conditions: [{ field: 'title', operator: 'contains', value: s }] }, 'update')),
    attempt(() => parseRuleInput({ conditions: [{ field: 'status', operator: 'in', value: [s] }] }, 'update')),
    attempt(() => parseRuleInput({ conditions: [{ field: s, operator: s, value: s }] }, 'update')),
    attempt(() => parseRuleInput({ actions: [{ type: 'set_status', value: s }] }, 'update')),
    attempt(() => parseRuleInput({ actions: [{ type: 'post_comment', value: s }] }, 'update')),
  ],
  // names, slugs, keys (src/common/naming and the modules that derive names)
  'slugify (team and project slugs)': (s) => slugify(s, 'team'),
  'deriveKeyBase (project key from name)': (s) => deriveKeyBase(s),
  'derivePrefix (organization issue prefix from name)': (s) => derivePrefix(s),
  'DTO patterns (slug, project key, column key, colour, UUID, email)': (s) => [
    SLUG_RE.test(s),
    PROJECT_KEY_RE.test(s),
    COLUMN_KEY_RE.test(s),
    HEX_COLOR_RE.test(s),
    isUuid(s),
    isEmail(s),
  ],
  // issue list filters (src/modules/issue-list)
  'parseIssueListParams (every filter value)': (s) =>
    ['q', 'status', 'priority', 'projectId', 'assignee', 'labelId', 'orderBy', 'orderDir', 'open', 'view', 'scope', 'limit', 'offset'].map((k) =>
      attempt(() => parseIssueListParams({ [k]: s })),
    ),
  'parseIssueListParams (query keys)': (s) => parseIssueListParams({ [s]: '1' }),
  parseStatuses: (s) => parseStatuses(s),
  // descriptions and names of the other resources
  'cleanDescription (projects, labels, teams)': (s) => cleanDescription(s),
  'milestoneInput (name, description, target date, status)': (s) => milestoneInput({ name: s, description: s, target_date: s, status: s }),
  'initiativeInput and targetInput (title, description, dates)': (s) => [
    attempt(() => initiativeInput({ title: s }, 'create')),
    attempt(() => initiativeInput({ title: 'x', description: s }, 'update')),
    attempt(() => targetInput({ title: s }, 'create')),
    attempt(() => targetInput({ title: 'x', description: s, unit_label: s, mode: s, target_date: s }, 'update')),
  ],
  'parseFilters and parseSort (saved custom views)': (s) => [
    attempt(() => parseFilters({ q: s })),
    attempt(() => parseFilters({ status: [s] })),
    attempt(() => parseFilters({ [s]: 1 })),
    attempt(() => parseSort({ field: s, direction: s })),
  ],
  // paging and filters of other lists
  'parsePage, parseIssueActivityPage, parseActivityFilter': (s) => [
    attempt(() => parsePage({ limit: s, offset: s, shape: s })),
    attempt(() => parseIssueActivityPage({ limit: s, offset: s })),
    attempt(() => parseActivityFilter({ filter: s })),
  ],
  // webhooks and KPI syncs: URLs, hosts, secrets, JSON pointers
  'parseUrl, parseAuth, parseStandard (webhook destinations)': (s) => [
    attempt(() => parseUrl(s, false)),
    attempt(() => parseUrl(`https://example.com/${s}`, false)),
    attempt(() => parseAuth({ type: 'bearer', secret: s }, false)),
    attempt(() => parseStandard({ secret: `whsec_${s}` }, false)),
  ],
  'KPI sync configuration (host, URL, headers, pointer, name, numbers)': (s) => [
    checkAllowlistHost(s),
    isJsonPointer(s),
    numericValue(s),
    attempt(() => checkName(s, true)),
    attempt(() =>
      validateSyncConfig(
        {
          request: { url: `https://metrics.example.com/${s}`, headers: { Authorization: { secretRef: s }, [s]: 'x' } },
          extraction: { pointer: s, numeric: { mode: s } },
          freshness: { providerTimestampPointer: s },
        },
        new Set(['metrics.example.com']),
      ),
    ),
  ],
  // validation messages (src/common/http/validation.ts): a property name is text, never a pattern
  'constraintMessages (property names)': (s) => constraintMessages([{ property: s, constraints: { isString: `${s} must be a string` }, children: [] }]),
};

/** The result of `fn`, or the DomainError it threw (anything else fails the test: it would be a 500). */
function attempt(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (e) {
    if (e instanceof DomainError && e.status < 500) return e;
    throw e;
  }
}

/**
 * Milliseconds of one call: the smaller of wall-clock time and this process's CPU time (other
 * processes on a busy machine stretch the first, never the second).
 */
function timeOf(fn: () => unknown): number {
  const cpu = process.cpuUsage();
  const start = performance.now();
  attempt(fn);
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return Math.min(wall, (used.user + used.system) / 1000);
}

/** The best of up to RUNS calls (stops at the first one under the bound). */
function bestTime(fn: () => unknown, boundMs: number): number {
  let best = Infinity;
  for (let run = 0; run < RUNS && best >= boundMs; run++) {
    if (run > 0) collectGarbage();
    best = Math.min(best, timeOf(fn));
  }
  return best;
}

/**
 * Functions that only ever see text a length check has let through, at that length. The Markdown
 * pipeline has its own bound: markdown-it and sanitize-html are linear, but cost a few microseconds
 * per character on adversarial text, so a body at the 100,000-character cap took up to 0.8 s here
 * (a table, on the 2-core machine loaded five times over). 3 s is still well below what the old
 * code-span pattern alone took at that length (about 9 s by the issue's measure).
 */
const BEHIND_A_CHECK: Array<{ name: string; length: number; boundMs: number; fn: (s: string) => unknown }> = [
  { name: 'cleanCommentBody (markdown-it, sanitize-html) at COMMENT_BODY_MAX', length: COMMENT_BODY_MAX, boundMs: 3_000, fn: (s) => cleanCommentBody(s) },
  // issue titles and `contains` values are at most 500 characters
  {
    name: 'conditionsMatch (automation title contains) at TITLE_MAX',
    length: TITLE_MAX,
    boundMs: BOUND_MS,
    fn: (s) =>
      conditionsMatch([{ field: 'title', operator: 'contains', value: s }], { status: 'todo', priority: 1, assigneeId: null, projectId: null, title: s }),
  },
  { name: 'likePattern (q of the issue list) at Q_MAX', length: Q_MAX, boundMs: BOUND_MS, fn: (s) => likePattern(s) },
  // multipart part headers (file name, type) are at most 80 KiB (@fastify/busboy's maxHeaderSize)
  {
    name: 'safeFileName, decideContentType (upload name and type) at 80 KiB',
    length: 80 * 1024,
    boundMs: BOUND_MS,
    fn: (s) => attempt(() => decideContentType(s, safeFileName(s), Buffer.alloc(16))),
  },
  { name: 'contentDisposition (stored file names) at 255', length: 255, boundMs: BOUND_MS, fn: (s) => contentDisposition('attachment', s) },
  { name: 'looksLikeSecret (KPI sync URL paths) at 2048', length: 2048, boundMs: BOUND_MS, fn: (s) => looksLikeSecret(s) },
  { name: 'evaluatePointer (KPI sync JSON pointers) at 512', length: 512, boundMs: BOUND_MS, fn: (s) => evaluatePointer({ a: [1] }, `/${s}`) },
  { name: 'issueNumberInQuery (q of the compact list) at Q_MAX', length: Q_MAX, boundMs: BOUND_MS, fn: (s) => issueNumberInQuery(s) },
];

const worst: Array<[string, number, string]> = [];

/** Runs `fn` over the corpus at `size`; the inputs at or over `boundMs` (best of RUNS), and the worst time. */
function overCorpus(name: string, size: number, boundMs: number, fn: (s: string) => unknown): string[] {
  const slow: string[] = [];
  let max: [number, string] = [0, ''];
  for (const input of adversarialInputs(size)) {
    const text = input.build();
    const ms = bestTime(() => fn(text), boundMs);
    if (ms > max[0]) max = [ms, input.name];
    if (ms >= boundMs) slow.push(`${input.name}: ${ms.toFixed(0)} ms`);
  }
  worst.push([name, max[0], max[1]]);
  return slow;
}

const SIZE = MIB;

describe('text parsers stay linear on adversarial input', () => {
  afterAll(() => {
    // the worst case of each function, for the record (the report of issue 11 lists them)
    console.log(worst.map(([t, ms, input]) => `${ms.toFixed(1).padStart(7)} ms  ${t}  (${input})`).join('\n'));
  });

  it('the corpus holds 1 MiB inputs of every family', () => {
    const corpus = adversarialInputs(SIZE);
    expect(corpus.length).toBeGreaterThan(150);
    for (const { build } of corpus) expect(build().length).toBeGreaterThanOrEqual(SIZE - 1);
  });

  describe('1 MiB of text, as a route hands it over, under 100 ms', () => {
    it.each(Object.entries(TARGETS))('%s', (name, fn) => expect(overCorpus(name, SIZE, BOUND_MS, fn)).toEqual([]));
  });

  describe('behind a length check, at the longest text it lets through', () => {
    it.each(BEHIND_A_CHECK.map((t) => [t.name, t] as const))('%s', (_name, t) => expect(overCorpus(t.name, t.length, t.boundMs, t.fn)).toEqual([]));
  });
});
