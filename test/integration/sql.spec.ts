import { QueryFailedError } from 'typeorm';
import { independently, Sql, type Tx } from '../../src/database/sql.service';
import { type TestApp, startTestApp } from '../support/app';

/** The one statement runner of the repositories: named statements, on the caller's transaction or the pool. */
describe('Sql (repository statement runner)', () => {
  let t: TestApp;
  let sql: Sql;
  const table = `sql_spec_${process.pid}`;

  beforeAll(async () => {
    t = await startTestApp();
    sql = t.app.get(Sql);
    await t.db.query(`CREATE TABLE ${table} (id int PRIMARY KEY, v text NOT NULL)`);
  });
  afterAll(async () => {
    await t?.db.query(`DROP TABLE IF EXISTS ${table}`);
    await t?.close();
  });

  it('runs on the transaction of the manager it is given: its writes are seen inside and undone by a rollback', async () => {
    const seenInside = await t.db
      .transaction(async (m) => {
        expect(await sql.run(`INSERT INTO ${table} (id, v) VALUES ($1, $2)`, [1, 'a'], m)).toBe(1);
        const inside = await sql.row<{ v: string }>(`SELECT v FROM ${table} WHERE id = $1`, [1], m);
        const outside = await sql.row<{ v: string }>(`SELECT v FROM ${table} WHERE id = $1`, [1]);
        throw Object.assign(new Error('rollback'), { inside, outside });
      })
      .catch((e: { inside: unknown; outside: unknown }) => e);
    expect(seenInside).toMatchObject({ inside: { v: 'a' }, outside: undefined });
    expect(await sql.rows(`SELECT v FROM ${table} WHERE id = $1`, [1])).toEqual([]);
  });

  it('commits with the transaction and serves the same text as one named statement, in and out of transactions', async () => {
    await t.db.transaction((m) => sql.run(`INSERT INTO ${table} (id, v) VALUES ($1, $2)`, [2, 'b'], m));
    const text = `SELECT v FROM ${table} WHERE id = $1`;
    expect(await sql.rows(text, [2])).toEqual([{ v: 'b' }]);
    const plannedText = `SELECT v FROM ${table} WHERE id = ANY($1::int[]) ORDER BY id`;
    const seen = await t.db.transaction(async (m) => {
      // one transaction = one connection, so pg_prepared_statements shows that connection's names
      expect(await sql.rows(text, [2], m)).toEqual([{ v: 'b' }]);
      expect(await sql.planned(plannedText, [[1, 2]], m)).toEqual([{ v: 'b' }]);
      return sql.rows<{ statement: string }>('SELECT statement FROM pg_prepared_statements WHERE statement = ANY($1::text[])', [[text, plannedText]], m);
    });
    expect(seen.map((r) => r.statement)).toEqual([text]);
  });

  it('reports PostgreSQL errors as QueryFailedError with the driver code (as m.query does)', async () => {
    const e = await sql.run(`INSERT INTO ${table} (id, v) VALUES ($1, NULL)`, [3]).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(QueryFailedError);
    expect((e as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('23502');
    const inTx = await t.db.transaction((m) => sql.run(`INSERT INTO ${table} (id, v) VALUES ($1, $2)`, [2, 'dup'], m)).catch((x: unknown) => x);
    expect((inTx as QueryFailedError & { driverError: { code: string } }).driverError.code).toBe('23505');
  });

  it('independently: one statement after another inside a transaction (one connection), all at once on the pool', async () => {
    const log: string[] = [];
    const task = (name: string, m?: Tx) => async () => {
      log.push(`start ${name}`);
      await sql.rows('SELECT 1', [], m);
      log.push(`end ${name}`);
      return name;
    };
    const inTx = await t.db.transaction((m) => independently(m, [task('a', m), task('b', m), task('c', m)]));
    expect(inTx).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    log.length = 0;
    expect(await independently(undefined, [task('a'), task('b')])).toEqual(['a', 'b']);
    expect(log.slice(0, 2)).toEqual(['start a', 'start b']);
  });

  it('the test guard records statements sent together on one connection (node-postgres DeprecationWarning)', async () => {
    const seen = (globalThis as { __concurrentQueries?: string[] }).__concurrentQueries!;
    await t.db.transaction((m) => Promise.all([sql.rows('SELECT 1', [], m), sql.rows('SELECT 2', [], m), sql.rows('SELECT 3', [], m)]));
    await new Promise((resolve) => setImmediate(resolve));
    // drained here, so the guard (test/support/no-concurrent-queries.ts) does not fail this test
    const found = seen.splice(0);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/already executing a query/);
  });
});
