import type { Connection } from '../../project/types'
import type { Component } from '../markdown/jsx-runtime'
import type { DialectProps } from '../../engines/dialect-rules'
import { DuckDbRules, SqliteRules } from './dialects-local'
import {
  BigQueryRules,
  ClickHouseRules,
  MySqlRules,
  PostgresRules,
  RedshiftRules,
  SnowflakeRules,
  TsqlRules
} from './dialects-remote'

/** Connection types (lower case) that Glassbox can query itself: local engines, project files, Postgres. */
export const EXECUTABLE_TYPES: readonly string[] = ['duckdb', 'sqlite', 'csv', 'parquet', 'json', 'postgres', 'postgresql']

interface Dialect {
  /** Connection types (lower case) written in this dialect. */
  types: readonly string[]
  Rules: Component<DialectProps>
}

// Fixed order, so the prompt does not change when connections are listed in another order.
const DIALECTS: readonly Dialect[] = [
  { types: ['bigquery'], Rules: BigQueryRules },
  { types: ['mssql', 'fabric', 'sqlserver'], Rules: TsqlRules },
  { types: ['mysql', 'mariadb'], Rules: MySqlRules },
  { types: ['redshift'], Rules: RedshiftRules },
  { types: ['clickhouse'], Rules: ClickHouseRules },
  { types: ['duckdb', 'motherduck', 'csv', 'parquet', 'json'], Rules: DuckDbRules },
  { types: ['sqlite'], Rules: SqliteRules },
  { types: ['postgres', 'postgresql'], Rules: PostgresRules },
  { types: ['snowflake'], Rules: SnowflakeRules }
]

/** The dialects among the connections (types compared case-insensitively), each with its connections. */
export function dialectsFor(connections: readonly Connection[]): { Rules: Component<DialectProps>; connections: Connection[] }[] {
  return DIALECTS.map((dialect) => ({
    Rules: dialect.Rules,
    connections: connections.filter((connection) => dialect.types.includes(connection.type.toLowerCase()))
  })).filter((match) => match.connections.length > 0)
}
