import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { ApiAnyValue } from '../../common/openapi/decorators';

/** Objects whose keys the heartbeat composer owns (described in the operation); typed here as open objects. */
const OBJECT = { type: 'object', additionalProperties: true } as const;
const OBJECTS = { type: 'array', items: OBJECT } as const;

export class HeartbeatAgentRef {
  @ApiProperty({ format: 'uuid', description: 'Agent member id' }) id!: string;
  @ApiProperty() display_name!: string;
}

/** The paging of a compact heartbeat: at most `max_bytes` UTF-8 bytes and `max_items` items per page. */
export class HeartbeatPage {
  @ApiProperty({ type: 'integer' }) max_bytes!: number;
  @ApiProperty({ type: 'integer' }) max_items!: number;
  @ApiProperty({ type: 'integer' }) returned_count!: number;
  @ApiProperty({ type: 'integer', description: 'The serialized size of this page' }) returned_bytes!: number;
  @ApiProperty() has_more!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Send as `cursor` for the next page; null on the terminal page' }) next_cursor!: string | null;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'On the terminal page: POST it to …/heartbeat/ack, then pass it as `since` for the changes after this run',
  })
  ack_cursor?: string | null;
}

/** The compact heartbeat (default): the envelope and one page of items. */
export class HeartbeatCompactResponse {
  @ApiProperty({ type: HeartbeatAgentRef }) agent!: HeartbeatAgentRef;
  @ApiProperty({ ...OBJECT, description: '`{ total, by_type }`' }) attention_summary!: Record<string, unknown>;
  @ApiAnyValue() recommended_action!: unknown;
  @ApiProperty({ ...OBJECT, description: 'Totals of the run (attention items, signal groups by severity, execution attention, items)' })
  counts!: Record<string, unknown>;
  @ApiProperty({ ...OBJECT, description: '`{ mode: full | since, reset_required, new_count, changed_count, unchanged_count }`' }) delta!: Record<
    string,
    unknown
  >;
  @ApiProperty(OBJECTS) attention_items!: Array<Record<string, unknown>>;
  @ApiProperty({ ...OBJECTS, description: 'Signals grouped (dependency groups add blocker, release_condition, issues)' })
  signal_groups!: Array<Record<string, unknown>>;
  @ApiProperty({ ...OBJECT, description: '`{ resolved_unread, open }` of this page' }) execution_attention!: Record<string, unknown>;
  @ApiProperty({ type: HeartbeatPage }) page!: HeartbeatPage;
}

/** The legacy full briefing (`view=full`): bounded lists, no paging. */
export class HeartbeatFullResponse {
  @ApiProperty({ type: HeartbeatAgentRef }) agent!: HeartbeatAgentRef;
  @ApiProperty({ format: 'date-time' }) timestamp!: string;
  @ApiProperty(OBJECTS) signals!: Array<Record<string, unknown>>;
  @ApiProperty({ ...OBJECTS, description: 'At most 50' }) attention_items!: Array<Record<string, unknown>>;
  @ApiProperty(OBJECT) attention_summary!: Record<string, unknown>;
  @ApiAnyValue() recommended_action!: unknown;
  @ApiProperty(OBJECT) execution_attention!: Record<string, unknown>;
}

export class HeartbeatAckResponse {
  @ApiProperty({ enum: [true] }) acknowledged!: boolean;
  @ApiProperty({ description: 'The acknowledged cursor; pass it as `since`' }) cursor!: string;
}

/** An agent's heartbeat policy as its managers see it. */
export class HeartbeatPolicyResponse {
  @ApiProperty({ type: HeartbeatAgentRef }) agent!: HeartbeatAgentRef;
  @ApiProperty({ ...OBJECT, nullable: true, description: 'The saved policy (stale ids kept: they match nothing), null for the default behaviour' })
  saved_policy!: Record<string, unknown> | null;
  @ApiProperty({ ...OBJECT, description: '`{ sections, signal_categories, project_ids, initiative_ids, columns }` without stale selections' })
  effective_policy!: Record<string, unknown>;
  @ApiProperty({ ...OBJECT, description: '`{ project_ids, initiative_ids, columns }` no longer selectable' }) stale_selections!: Record<string, unknown>;
  @ApiProperty() has_stale_selections!: boolean;
  @ApiProperty({ ...OBJECT, description: '`{ projects: [{ id, name, board_columns }], initiatives: [{ id, title, status }] }`' })
  selectable!: Record<string, unknown>;
}

export class HeartbeatSuccessResponse {
  @ApiProperty({ enum: [true] }) success!: boolean;
}

export class HeartbeatPreviewResponse {
  @ApiProperty({ ...OBJECT, description: 'The policy composed with (the draft, or the saved one)' }) policy!: Record<string, unknown>;
  @ApiProperty({
    description: 'The compact heartbeat as the agent (no cursors: nothing is persisted), or the full view with `view=full`',
    anyOf: [{ $ref: getSchemaPath('HeartbeatCompactResponse') }, { $ref: getSchemaPath('HeartbeatFullResponse') }],
  })
  heartbeat!: HeartbeatCompactResponse | HeartbeatFullResponse;
}
