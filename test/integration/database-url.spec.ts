import { existsSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source-options';

/**
 * DATABASE_URL reaches node-postgres whole (TypeORM passes it on as `connectionString`), so the
 * libpq forms work: `?host=<directory>` names a Unix socket (README, configuration).
 */
describe('DATABASE_URL', () => {
  const tcp = new URL(process.env.DATABASE_URL!);
  const socketDir = '/var/run/postgresql';

  const clientAddress = async (url: string) => {
    const ds = new DataSource(dataSourceOptions({ databaseUrl: url, databasePoolSize: 1 }));
    await ds.initialize();
    try {
      const [row] = await ds.query('SELECT host(inet_client_addr()) AS addr, current_database() AS db');
      return row as { addr: string | null; db: string };
    } finally {
      await ds.destroy();
    }
  };

  it('over TCP the server sees a client address', async () => {
    const r = await clientAddress(tcp.toString());
    expect(r).toEqual({ addr: expect.stringMatching(/^(127\.0\.0\.1|::1)$/), db: tcp.pathname.slice(1) });
  });

  it('with ?host=<socket directory> the same database is reached over the Unix socket (no client address)', async () => {
    // this machine kind's PostgreSQL listens on the Debian socket directory (CI runs on the same kind)
    expect(existsSync(`${socketDir}/.s.PGSQL.${tcp.port || 5432}`)).toBe(true);
    const u = new URL(tcp.toString());
    u.hostname = 'localhost';
    u.searchParams.set('host', socketDir);
    const r = await clientAddress(u.toString());
    expect(r).toEqual({ addr: null, db: tcp.pathname.slice(1) });
  });
});
