import type { Actor } from '../../../../common/auth/principal';
import type { HeartbeatSurface } from '../../heartbeat.service';

export class GetHeartbeatQuery {
  constructor(
    readonly actor: Actor,
    readonly query: Record<string, unknown>,
    /** `mcp`: the MCP tool (no workflow verification attention). */
    readonly surface: HeartbeatSurface = 'rest',
  ) {}
}
