import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import mysql from 'mysql2/promise'
import { unusedLoopbackPort } from './free-port'

// A throwaway MariaDB server for tests: mariadb-install-db + mariadbd in a temp folder, on a loopback port,
// run as an unprivileged user when the tests run as root. Tests connect as `analyst`, a user that may WRITE
// the shop database (and has FILE): whatever stops a write in the tests is Glassbox, not a missing grant.
// Without MariaDB installed the suites skip with a one-line hint; GLASSBOX_REQUIRE_MYSQL=1 (CI) makes absence
// a failure.

export const MYSQL_ANALYST = { user: 'analyst', password: 'pw-Analyst-3b9d' }
export const MYSQL_HINT = 'MySQL/MariaDB tests skipped: install Debian `mariadb-server` (mariadbd, mariadb-install-db) to run them.'

const SERVER_CANDIDATES = ['/usr/sbin/mariadbd', '/usr/sbin/mysqld', '/usr/bin/mariadbd']
const INSTALL_CANDIDATES = ['/usr/bin/mariadb-install-db', '/usr/bin/mysql_install_db']

export interface MariaDbServer {
  host: string
  port: number
  database: string
  /** Runs SQL as root (setting up data, checking nothing changed); rows as arrays. */
  admin: (sql: string) => Promise<unknown[][]>
  /** The one folder the server may write files to (secure_file_priv): an escaped INTO OUTFILE lands here. */
  outfileFolder: string
  stop: () => Promise<void>
}

function findBinaries(): { server: string; install: string } | null {
  const server = [process.env.GLASSBOX_MARIADBD, ...SERVER_CANDIDATES].find((path): path is string => Boolean(path) && existsSync(path ?? ''))
  const install = INSTALL_CANDIDATES.find((path) => existsSync(path))
  return server && install ? { server, install } : null
}

export function mariadbAvailable(): boolean {
  const available = findBinaries() !== null
  if (!available && process.env.GLASSBOX_REQUIRE_MYSQL === '1') {
    throw new Error('GLASSBOX_REQUIRE_MYSQL=1 but mariadbd/mariadb-install-db were not found (install Debian `mariadb-server`).')
  }
  if (!available) console.warn(MYSQL_HINT)
  return available
}

export async function startMariaDb(setupSql: string): Promise<MariaDbServer> {
  const binaries = findBinaries()
  if (!binaries) throw new Error(MYSQL_HINT)
  const dir = mkdtempSync(join(tmpdir(), 'glassbox-mariadb-'))
  const data = join(dir, 'data')
  const asRoot = process.getuid?.() === 0
  // mariadbd will not run as root without --user: the server belongs to `nobody`, which needs the folder.
  if (asRoot) {
    chmodSync(dir, 0o755)
    chownSync(dir, 65534, 65534)
  }
  // As `nobody` by the spawn itself, not through runuser: runuser forks, so killing it would leave the server running.
  const asNobody = asRoot ? { uid: 65534, gid: 65534 } : {}
  const installArgs = ['--no-defaults', `--datadir=${data}`, '--auth-root-authentication-method=normal', '--skip-test-db', ...(asRoot ? ['--user=nobody'] : [])]
  const installed = spawnSync(binaries.install, installArgs, { cwd: dir, encoding: 'utf8', timeout: 120_000, ...asNobody })
  if (installed.status !== 0) throw new Error(`mariadb-install-db failed: ${installed.stderr || installed.stdout}`)
  const port = await unusedLoopbackPort()
  const serverArgs = [
    '--no-defaults',
    `--datadir=${data}`,
    `--socket=${join(dir, 'mysqld.sock')}`,
    `--pid-file=${join(dir, 'mysqld.pid')}`,
    `--log-error=${join(dir, 'server.log')}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    '--skip-log-bin',
    '--innodb-buffer-pool-size=16M',
    '--innodb-log-file-size=8M',
    '--max-connections=40',
    // SELECT … INTO OUTFILE may write here if Glassbox let it through: the tests look for the file.
    `--secure-file-priv=${dir}`
  ]
  const child: ChildProcess = spawn(binaries.server, serverArgs, { cwd: dir, stdio: 'ignore', ...asNobody })
  const connectAdmin = (): Promise<mysql.Connection> => mysql.createConnection({ host: '127.0.0.1', port, user: 'root', multipleStatements: true })
  const stop = async (): Promise<void> => {
    child.kill('SIGKILL')
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    await waitForServer(connectAdmin, child, join(dir, 'server.log'))
    const admin = async (sql: string): Promise<unknown[][]> => {
      const connection = await connectAdmin()
      try {
        const [rows] = await connection.query({ sql, rowsAsArray: true })
        return Array.isArray(rows) ? rows.filter(Array.isArray) : []
      } finally {
        await connection.end()
      }
    }
    await admin(
      `CREATE DATABASE shop;
       CREATE USER '${MYSQL_ANALYST.user}'@'127.0.0.1' IDENTIFIED BY '${MYSQL_ANALYST.password}';
       GRANT ALL PRIVILEGES ON shop.* TO '${MYSQL_ANALYST.user}'@'127.0.0.1';
       GRANT FILE, PROCESS ON *.* TO '${MYSQL_ANALYST.user}'@'127.0.0.1';`
    )
    await admin(`USE shop; ${setupSql}`)
    return { host: '127.0.0.1', port, database: 'shop', admin, stop, outfileFolder: dir }
  } catch (error) {
    await stop()
    throw error
  }
}

async function waitForServer(connect: () => Promise<mysql.Connection>, child: ChildProcess, log: string): Promise<void> {
  // Bounded: 60 s at most, then the server's own log says why.
  for (let attempt = 0; attempt < 240; attempt++) {
    if (child.exitCode !== null) break
    try {
      const connection = await connect()
      await connection.end()
      return
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 250))
    }
  }
  const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '(no log)'
  throw new Error(`mariadbd did not start:\n${tail}`)
}

/** Cars and their sales: a primary key, a unique name, a foreign key, comments, dates and decimals. */
export const CARS_SQL = `
CREATE TABLE cars (
  id int NOT NULL PRIMARY KEY,
  model varchar(120) NOT NULL UNIQUE COMMENT 'Model name as sold',
  list_price decimal(10,2)
) COMMENT = 'One row per car model';
CREATE TABLE sales (
  id bigint NOT NULL AUTO_INCREMENT PRIMARY KEY,
  car_id int NOT NULL,
  sold_on date NOT NULL,
  price decimal(10,2) NOT NULL,
  notes text,
  CONSTRAINT sales_car FOREIGN KEY (car_id) REFERENCES cars (id)
);
INSERT INTO cars VALUES (1, 'Roadster', 41000.00), (2, 'Estate', 29500.50), (3, 'Van', NULL);
INSERT INTO sales (car_id, sold_on, price, notes) VALUES
  (1, '2023-03-15', 40000.00, REPEAT('n', 3000)), (1, '2023-04-01', 40500.00, NULL), (2, '2023-04-02', 29000.00, 'fleet');
`

/** nao_config.yaml declaring the server as \`dealer\`; the password comes from GLASSBOX_TEST_MYSQL_PASSWORD. */
export function mysqlConfig(port: number): string {
  return `project_name: dealer
databases:
  - name: dealer
    type: mysql
    host: 127.0.0.1
    port: ${port}
    database: shop
    user: ${MYSQL_ANALYST.user}
    password: "{{ env('GLASSBOX_TEST_MYSQL_PASSWORD') }}"
`
}
