import { parseMentionRequests } from './comment-writer.service';

describe('parseMentionRequests', () => {
  const id = '0b9d6e52-6f0a-4a53-9f43-2f3ad8b1c1aa';
  it('keeps each requested member once (any spelling of the id), invalid values by type and value', () => {
    expect(parseMentionRequests([{ member_id: id }, { memberId: id.toUpperCase() }, id, '1', 1, { member_id: '1' }, null, { x: 1 }], 'mentions')).toEqual([
      { id, raw: id },
      { id: null, raw: '1' },
      { id: null, raw: 1 },
      { id: null, raw: null },
    ]);
  });
  it('reads a long invalid value once', () => {
    const long = '\ud83d'.repeat(1 << 20);
    expect(parseMentionRequests([long, { member_id: long }], 'mentions')).toHaveLength(1);
  });
});
