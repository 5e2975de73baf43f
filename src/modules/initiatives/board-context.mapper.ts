import type { BoardInitiativeRow, BoardMilestoneRow } from './board-context.repository';
import type { BoardContextInitiative, BoardContextResponse } from './initiatives.response';

const progress = (done: number, all: number): number => (all ? Math.round((100 * done) / all) : 0);

export function toBoardContext(
  milestones: BoardMilestoneRow[],
  initiatives: Array<BoardInitiativeRow & { kpi_impact_count: number }>,
  issueLinks: Array<{ issue_id: string; initiative_ids: string[] }>,
): BoardContextResponse {
  const shown: BoardContextInitiative[] = initiatives.map((n) => ({
    id: n.id,
    title: n.title,
    status: n.status,
    issueCount: n.issue_count,
    completedCount: n.completed_count,
    progress: progress(n.completed_count, n.issue_count),
    kpiImpactCount: n.kpi_impact_count,
    linkedMilestoneIds: n.milestone_ids,
  }));
  const byId = new Set(shown.map((n) => n.id));
  return {
    strategyContext: {
      milestones: milestones.map((m) => ({
        id: m.id,
        name: m.name,
        status: m.status,
        issueCount: m.issue_count,
        completedCount: m.completed_count,
        progress: progress(m.completed_count, m.issue_count),
        linkedInitiatives: shown.filter((n) => n.linkedMilestoneIds.includes(m.id)),
      })),
      initiatives: shown,
      issueInitiativeLinks: issueLinks
        .map((l) => ({ issueId: l.issue_id, initiativeIds: l.initiative_ids.filter((id) => byId.has(id)).sort() }))
        .filter((l) => l.initiativeIds.length),
    },
  };
}
