import { describe, expect, it } from 'vitest'
import { refusedConstruct } from './statement-check'

describe('refusedConstruct', () => {
  it.each([
    "SELECT * FROM t INTO OUTFILE '/tmp/x'",
    "SELECT 'a' INTO DUMPFILE '/tmp/x'",
    'SELECT 1 INTO @n',
    "SELECT * FROM t /*! INTO OUTFILE '/tmp/x' */",
    "SELECT * FROM t /*M!100000 INTO OUTFILE '/tmp/x' */",
    "SELECT GET_LOCK('a', 1)",
    "SELECT get_lock ('a', 1)",
    'SELECT RELEASE_ALL_LOCKS()',
    "SELECT LOAD_FILE('/etc/passwd')"
  ])('refuses %s', (sql) => {
    expect(refusedConstruct(sql)).not.toBeNull()
  })

  it.each([
    "SELECT 'INTO OUTFILE' AS a",
    'SELECT "get_lock(" AS a',
    'SELECT `into` FROM t',
    'SELECT 1 -- INTO OUTFILE\n',
    'SELECT 1 # GET_LOCK(\n',
    "SELECT 1 /* INTO OUTFILE 'x' */",
    "SELECT 'it''s INTO' AS a, 'back\\\\' AS b",
    'SELECT get_lock_count FROM t',
    'SELECT c.model FROM cars c JOIN sales s ON s.car_id = c.id'
  ])('lets %s through', (sql) => {
    expect(refusedConstruct(sql)).toBeNull()
  })
})
