import { spawnSync } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { unusedLoopbackPort } from './free-port'

// A throwaway Postgres cluster for tests: initdb + pg_ctl in a temp folder, on a loopback port, run as an
// unprivileged user when the tests run as root (Postgres refuses to run as root). Tests connect as a
// non-superuser role with a password. Without Postgres installed the suites skip with a one-line hint;
// GLASSBOX_REQUIRE_POSTGRES=1 (CI) makes absence a failure.

export const ANALYST = { user: 'analyst', password: 'pw-Analyst-7c1f' }
export const POSTGRES_HINT = 'Postgres tests skipped: install Debian `postgresql` (initdb, pg_ctl) to run them.'

export interface PostgresCluster {
  host: string
  port: number
  database: string
  /** Runs SQL as the cluster's superuser (for setting up data and checking nothing changed). */
  admin: (sql: string) => Promise<pg.QueryResult>
  stop: () => Promise<void>
}

export function findPostgresBin(): string | null {
  const candidates = [process.env.GLASSBOX_POSTGRES_BIN, ...postgresLibDirs(), ...pathDirs()].filter((dir): dir is string => Boolean(dir))
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) ?? null
}

export function postgresAvailable(): boolean {
  const available = findPostgresBin() !== null
  if (!available && process.env.GLASSBOX_REQUIRE_POSTGRES === '1') {
    throw new Error('GLASSBOX_REQUIRE_POSTGRES=1 but initdb/pg_ctl were not found (install Debian `postgresql`).')
  }
  if (!available) console.warn(POSTGRES_HINT)
  return available
}

function postgresLibDirs(): string[] {
  try {
    return readdirSync('/usr/lib/postgresql').sort().reverse().map((version) => `/usr/lib/postgresql/${version}/bin`)
  } catch {
    return []
  }
}

function pathDirs(): string[] {
  return (process.env.PATH ?? '').split(':')
}


export async function startPostgres(setupSql: string): Promise<PostgresCluster> {
  const bin = findPostgresBin()
  if (!bin) throw new Error(POSTGRES_HINT)
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-pg-'))
  const data = join(dir, 'data')
  const asRoot = process.getuid?.() === 0
  // Postgres will not run as root: the cluster belongs to `nobody`, which needs to enter the folder.
  if (asRoot) {
    chmodSync(dir, 0o755)
    chownSync(dir, 65534, 65534)
  }
  const run = (command: string, args: string[]): void => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'nobody', '--', join(bin, command), ...args]] : [join(bin, command), args]
    const result = spawnSync(file, argv, { cwd: dir, encoding: 'utf8', timeout: 60_000 })
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`)
  }
  run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale=C'])
  writeFileSync(
    join(data, 'pg_hba.conf'),
    ['local all all trust', 'host all postgres 127.0.0.1/32 trust', 'host all all 127.0.0.1/32 scram-sha-256', ''].join('\n')
  )
  if (asRoot) chownSync(join(data, 'pg_hba.conf'), 65534, 65534)
  const port = await unusedLoopbackPort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=40`
  run('pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start'])
  const stop = async (): Promise<void> => {
    try {
      run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  const admin = async (sql: string): Promise<pg.QueryResult> => {
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'shop' })
    await client.connect()
    try {
      return await client.query(sql)
    } finally {
      await client.end()
    }
  }
  try {
    const bootstrap = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' })
    await bootstrap.connect()
    await bootstrap.query('CREATE DATABASE shop')
    await bootstrap.query(`CREATE ROLE ${ANALYST.user} LOGIN PASSWORD '${ANALYST.password}'`)
    await bootstrap.end()
    await admin(setupSql)
  } catch (error) {
    await stop()
    throw error
  }
  return { host: '127.0.0.1', port, database: 'shop', admin, stop }
}

/** The small dataset the Postgres tests query: orders in public, a second schema, grants to the analyst. */
export const SHOP_SQL = `
CREATE TABLE public.orders (id integer PRIMARY KEY, region text NOT NULL, amount numeric(10, 2) NOT NULL, ordered_on date NOT NULL);
INSERT INTO public.orders SELECT i, (ARRAY['north', 'south', 'east'])[1 + i % 3], (i * 1.25)::numeric(10, 2), DATE '2024-01-01' + i FROM generate_series(1, 300) i;
CREATE SCHEMA crm;
CREATE TABLE crm.customers (id bigint PRIMARY KEY, name varchar(40) UNIQUE, notes text, tags text[], first_order integer REFERENCES public.orders (id));
INSERT INTO crm.customers VALUES (1, 'Ada', repeat('n', 3000), ARRAY['vip'], 7), (2, 'Grace', NULL, ARRAY[]::text[], NULL);
COMMENT ON TABLE public.orders IS 'One row per order';
COMMENT ON COLUMN public.orders.region IS 'Sales region,
lower case';
CREATE VIEW public.north_orders AS SELECT * FROM public.orders WHERE region = 'north';
GRANT USAGE ON SCHEMA crm TO ${ANALYST.user};
GRANT SELECT ON ALL TABLES IN SCHEMA public, crm TO ${ANALYST.user};
-- The analyst may write as far as privileges go (owns orders, may create in public): what stops every write in
-- the tests is the read-only transaction and the cursor, not a missing grant.
ALTER TABLE public.orders OWNER TO ${ANALYST.user};
GRANT CREATE ON SCHEMA public TO ${ANALYST.user};
CREATE SEQUENCE public.order_ids;
ALTER SEQUENCE public.order_ids OWNER TO ${ANALYST.user};
`

/** nao_config.yaml declaring the cluster as `warehouse`; the password comes from GLASSBOX_TEST_PG_PASSWORD. */
export function postgresConfig(port: number): string {
  return `project_name: pg
databases:
  - name: warehouse
    type: postgres
    host: 127.0.0.1
    port: ${port}
    database: shop
    user: ${ANALYST.user}
    password: "{{ env('GLASSBOX_TEST_PG_PASSWORD') }}"
`
}
