import type { AnalyticsAggregates, AnalyticsScope } from './analytics.repository';
import type { AnalyticsResponse, AnalyticsWorkload } from './analytics.response';

const round = (v: number | null): number | null => (v === null ? null : Math.round(v * 100) / 100);

export function toAnalyticsResponse(
  scope: AnalyticsScope,
  a: AnalyticsAggregates,
  members: Map<string, { display_name: string; type: 'human' | 'agent' }>,
): AnalyticsResponse {
  const named = (rows: Array<{ assignee_id: string | null; count: number }>): AnalyticsWorkload[] =>
    rows.map((r) => {
      const m = r.assignee_id ? members.get(r.assignee_id) : undefined;
      return { assignee_id: r.assignee_id, display_name: m?.display_name ?? null, type: m?.type ?? null, count: r.count };
    });
  const done = named(a.completed_by_assignee);
  const sum = (k: 'created' | 'completed' | 'cancelled') => a.days.reduce((n, d) => n + d[k], 0);
  const last = a.days[a.days.length - 1];
  return {
    range: { from: scope.from.toISOString(), to: scope.to.toISOString(), time_zone: 'UTC' },
    project_id: scope.projectId,
    team_id: scope.teamId,
    totals: {
      created: sum('created'),
      completed: sum('completed'),
      cancelled: sum('cancelled'),
      open_at_start: a.open_at_start,
      open_at_end: last ? last.open : a.open_at_start,
    },
    days: a.days,
    cycle_time_hours: { p50: round(a.cycle.p50), p90: round(a.cycle.p90), count: a.cycle.count },
    lead_time_hours: { p50: round(a.lead.p50), p90: round(a.lead.p90), count: a.lead.count },
    throughput: {
      human: done.filter((d) => d.type === 'human').reduce((n, d) => n + d.count, 0),
      agent: done.filter((d) => d.type === 'agent').reduce((n, d) => n + d.count, 0),
      unassigned: done.filter((d) => d.assignee_id === null).reduce((n, d) => n + d.count, 0),
    },
    throughput_by_assignee: done,
    statusDistribution: a.status,
    priorityBreakdown: a.priority,
    assigneeWorkload: named(a.open_by_assignee),
    dailyCounts: a.days.map((d) => ({ date: d.date, created: d.created, completed: d.completed })),
  };
}
