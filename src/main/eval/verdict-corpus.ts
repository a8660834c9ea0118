// The verdict corpus: benchmark-style questions over a small academic database (authors, organisations,
// publications, conferences, journals) and a few orders, each with the case's expected SQL (one or several
// acceptable ones), an answer SQL a model might write, and the verdict the README's rules give — with the
// rule that decides it. verdict-corpus.test.ts runs every pair on real DuckDB and, when it is installed, on
// Postgres; the SQL is written to mean the same on both.

export interface VerdictCase {
  question: string
  expected: string | string[]
  answer: string
  verdict: 'pass' | 'fail'
  /** The deciding rule's id, as the verdict reports it. */
  rule: 'rows-any-order' | 'rows-in-order' | 'row-count' | 'columns' | 'extra-columns' | 'rows' | 'row-order'
  /** A phrase the verdict line must hold. */
  says?: string
  ordered?: boolean
  extraColumns?: 'ignore' | 'forbid'
  duplicates?: 'count' | 'ignore'
}

export const CORPUS_SCHEMA = `
CREATE TABLE organization (oid INTEGER PRIMARY KEY, name TEXT NOT NULL, continent TEXT NOT NULL);
INSERT INTO organization VALUES (1, 'MIT', 'North America'), (2, 'ETH Zurich', 'Europe'), (3, 'Tsinghua', 'Asia'), (4, 'Oxford', 'Europe');
CREATE TABLE author (aid INTEGER PRIMARY KEY, name TEXT NOT NULL, homepage TEXT, oid INTEGER NOT NULL);
INSERT INTO author VALUES (1, 'Ada Lovelace', 'ada.example', 1), (2, 'Alan Turing', 'alan.example', 4), (3, 'Grace Hopper', NULL, 1),
  (4, 'Edsger Dijkstra', 'ed.example', 2), (5, 'Barbara Liskov', 'bl.example', 1), (6, 'Yao Qizhi', NULL, 3);
CREATE TABLE conference (cid INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO conference VALUES (1, 'VLDB'), (2, 'SIGMOD'), (3, 'ICDE');
CREATE TABLE journal (jid INTEGER PRIMARY KEY, name TEXT NOT NULL);
INSERT INTO journal VALUES (1, 'TODS'), (2, 'VLDBJ');
CREATE TABLE publication (pid INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER NOT NULL, cid INTEGER, jid INTEGER, citation_num INTEGER NOT NULL, reference_num INTEGER NOT NULL);
INSERT INTO publication VALUES (1, 'Notes on engines', 2019, 1, NULL, 120, 30), (2, 'On computable numbers', 2019, NULL, 1, 300, 10),
  (3, 'Compilers for all', 2020, 2, NULL, 120, 25), (4, 'Goto considered', 2020, 3, NULL, 80, 5), (5, 'Abstraction and types', 2021, 1, NULL, 80, 40),
  (6, 'Interactive proofs', 2021, NULL, 2, 45, 12), (7, 'Query graphs', 2021, 2, NULL, 45, 18), (8, 'Learned indexes', 2022, 1, NULL, 10, 50);
CREATE TABLE writes (aid INTEGER NOT NULL, pid INTEGER NOT NULL);
INSERT INTO writes VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (4, 6), (1, 7), (5, 7), (3, 8), (6, 8), (2, 3);
CREATE TABLE orders (order_id INTEGER PRIMARY KEY, customer TEXT NOT NULL, order_date DATE NOT NULL, amount NUMERIC(10, 2), status TEXT NOT NULL, created_at TIMESTAMP NOT NULL);
INSERT INTO orders VALUES (1, 'acme', DATE '2024-01-05', 120.50, 'completed', TIMESTAMP '2024-01-05 00:00:00'),
  (2, 'acme', DATE '2024-01-20', 80.00, 'returned', TIMESTAMP '2024-01-20 09:30:00'), (3, 'globex', DATE '2024-02-02', 45.25, 'completed', TIMESTAMP '2024-02-02 00:00:00'),
  (4, 'initech', DATE '2024-02-14', 300.00, 'completed', TIMESTAMP '2024-02-14 14:00:00'), (5, 'globex', DATE '2024-03-01', 45.25, 'cancelled', TIMESTAMP '2024-03-01 00:00:00'),
  (6, 'umbrella', DATE '2024-03-15', NULL, 'pending', TIMESTAMP '2024-03-15 00:00:00');
`

const MOST_CITED = 'FROM author a JOIN writes w ON w.aid = a.aid JOIN publication p ON p.pid = w.pid WHERE p.citation_num = (SELECT MAX(citation_num) FROM publication)'
const VLDB_CONFERENCE = "SELECT DISTINCT a.name FROM author a JOIN writes w ON w.aid = a.aid JOIN publication p ON p.pid = w.pid JOIN conference c ON c.cid = p.cid WHERE c.name = 'VLDB'"
const VLDB_ANYWHERE =
  "SELECT DISTINCT a.name FROM author a JOIN writes w ON w.aid = a.aid JOIN publication p ON p.pid = w.pid LEFT JOIN conference c ON c.cid = p.cid LEFT JOIN journal j ON j.jid = p.jid WHERE c.name = 'VLDB' OR j.name = 'VLDBJ'"
const AUTHORS_2021 = 'FROM author a JOIN writes w ON w.aid = a.aid JOIN publication p ON p.pid = w.pid WHERE p.year = 2021'

export const CORPUS: VerdictCase[] = [
  // The gold SQL passes against itself.
  { question: 'How many authors are there?', expected: 'SELECT COUNT(*) AS authors FROM author', answer: 'SELECT COUNT(*) AS authors FROM author', verdict: 'pass', rule: 'rows-any-order', says: 'same rows in any order (the question asks for none)' },
  { question: 'For each continent, how many authors work there?', expected: 'SELECT o.continent, COUNT(*) AS authors FROM author a JOIN organization o ON o.oid = a.oid GROUP BY o.continent', answer: 'SELECT o.continent, COUNT(*) AS authors FROM author a JOIN organization o ON o.oid = a.oid GROUP BY o.continent', verdict: 'pass', rule: 'rows-any-order' },

  // Column names never matter.
  { question: 'How many publications appeared in 2021?', expected: 'SELECT COUNT(*) AS publications FROM publication WHERE year = 2021', answer: 'SELECT COUNT(pid) AS "count(pid)" FROM publication WHERE year = 2021', verdict: 'pass', rule: 'rows-any-order' },

  // Extra answer columns are ignored unless the case forbids them.
  { question: 'Which authors work at MIT?', expected: "SELECT a.name FROM author a JOIN organization o ON o.oid = a.oid WHERE o.name = 'MIT'", answer: "SELECT a.name, a.homepage AS extra_note FROM author a JOIN organization o ON o.oid = a.oid WHERE o.name = 'MIT'", verdict: 'pass', rule: 'rows-any-order', says: 'extra column extra_note ignored' },
  { question: 'Which authors work at MIT?', expected: "SELECT a.name FROM author a JOIN organization o ON o.oid = a.oid WHERE o.name = 'MIT'", answer: "SELECT a.name, a.homepage AS extra_note FROM author a JOIN organization o ON o.oid = a.oid WHERE o.name = 'MIT'", extraColumns: 'forbid', verdict: 'fail', rule: 'extra-columns', says: 'extra column extra_note (extra_columns: forbid)' },
  { question: 'What is the total number of citations per conference?', expected: 'SELECT c.name, SUM(p.citation_num) AS citations FROM conference c JOIN publication p ON p.cid = c.cid GROUP BY c.name', answer: 'SELECT c.cid, c.name, SUM(p.citation_num) AS citations, COUNT(*) AS papers FROM conference c JOIN publication p ON p.cid = c.cid GROUP BY c.cid, c.name', verdict: 'pass', rule: 'rows-any-order', says: 'extra columns cid, papers ignored' },
  { question: 'What is the total number of citations per conference?', expected: 'SELECT c.name, SUM(p.citation_num) AS citations FROM conference c JOIN publication p ON p.cid = c.cid GROUP BY c.name', answer: 'SELECT c.name, SUM(p.citation_num) AS citations FROM conference c JOIN publication p ON p.cid = c.cid GROUP BY c.name', extraColumns: 'forbid', verdict: 'pass', rule: 'rows-any-order' },

  // Columns are matched by content, for any width.
  { question: 'How many publications are there per year?', expected: 'SELECT year, COUNT(*) AS n FROM publication GROUP BY year', answer: 'SELECT COUNT(*) AS n, year FROM publication GROUP BY year', verdict: 'pass', rule: 'rows-any-order', says: 'columns matched by content in another order' },
  { question: 'Give the id, title, year, citations and references of every publication of 2021.', expected: 'SELECT pid, title, year, citation_num, reference_num FROM publication WHERE year = 2021', answer: 'SELECT reference_num, citation_num, title, pid, year FROM publication WHERE year = 2021', verdict: 'pass', rule: 'rows-any-order', says: 'columns matched by content in another order' },
  { question: 'Give every author with id, name, homepage, organisation, continent and organisation id.', expected: 'SELECT a.aid, a.name, a.homepage, o.name AS org, o.continent, a.oid FROM author a JOIN organization o ON o.oid = a.oid', answer: 'SELECT 1 AS one, a.oid, o.continent, o.name AS org, a.homepage, a.name, a.aid FROM author a JOIN organization o ON o.oid = a.oid', verdict: 'pass', rule: 'rows-any-order', says: 'extra column one ignored' },
  { question: 'Give the title and year of every publication.', expected: 'SELECT title, year FROM publication', answer: 'SELECT p.title, q.year FROM publication p JOIN publication q ON q.pid = 9 - p.pid', verdict: 'fail', rule: 'rows', says: 'no row of the answer matches expected row' },
  { question: 'Which publications appeared in VLDB?', expected: "SELECT p.title FROM publication p JOIN conference c ON c.cid = p.cid WHERE c.name = 'VLDB'", answer: "SELECT p.title FROM publication p JOIN conference c ON c.cid = p.cid WHERE c.name = 'SIGMOD'", verdict: 'fail', rule: 'row-count' },
  { question: 'Which publications appeared in ICDE or TODS?', expected: "SELECT p.title FROM publication p LEFT JOIN conference c ON c.cid = p.cid LEFT JOIN journal j ON j.jid = p.jid WHERE c.name = 'ICDE' OR j.name = 'TODS'", answer: "SELECT p.title FROM publication p JOIN conference c ON c.cid = p.cid WHERE c.name = 'SIGMOD'", verdict: 'fail', rule: 'columns', says: 'no answer column holds the values of expected column 1 (title)' },

  // Several acceptable answers: the case lists them, the verdict names the one that matched.
  { question: 'Which author wrote the most cited publication?', expected: [`SELECT a.name ${MOST_CITED}`, `SELECT a.aid ${MOST_CITED}`], answer: `SELECT a.aid AS author_id ${MOST_CITED}`, verdict: 'pass', rule: 'rows-any-order', says: 'matched the 2nd acceptable SQL' },
  { question: 'Which author wrote the most cited publication?', expected: [`SELECT a.name ${MOST_CITED}`, `SELECT a.aid ${MOST_CITED}`], answer: `SELECT a.name ${MOST_CITED}`, verdict: 'pass', rule: 'rows-any-order', says: 'matched the 1st acceptable SQL' },
  { question: 'Which author wrote the most cited publication?', expected: [`SELECT a.name ${MOST_CITED}`, `SELECT a.aid ${MOST_CITED}`], answer: `SELECT a.homepage ${MOST_CITED}`, verdict: 'fail', rule: 'columns', says: 'matches none of the 2 acceptable SQLs; against the 1st:' },
  { question: 'How many publications has each author written?', expected: 'SELECT {a.name, a.aid}, COUNT(*) AS papers FROM author a JOIN writes w ON w.aid = a.aid GROUP BY {}', answer: 'SELECT a.aid, COUNT(w.pid) FROM author a JOIN writes w ON w.aid = a.aid GROUP BY a.aid', verdict: 'pass', rule: 'rows-any-order', says: 'matched the 2nd acceptable SQL' },
  { question: 'How many publications has each author written?', expected: 'SELECT {a.name, a.aid}, COUNT(*) AS papers FROM author a JOIN writes w ON w.aid = a.aid GROUP BY {}', answer: 'SELECT a.homepage, COUNT(w.pid) FROM author a JOIN writes w ON w.aid = a.aid GROUP BY a.homepage', verdict: 'fail', rule: 'row-count', says: 'matches none of the 3 acceptable SQLs' },
  { question: 'Which authors have published in VLDB?', expected: [VLDB_CONFERENCE, VLDB_ANYWHERE], answer: "SELECT a.name FROM author a WHERE a.aid IN (SELECT w.aid FROM writes w JOIN publication p ON p.pid = w.pid WHERE p.cid = 1 UNION SELECT w.aid FROM writes w JOIN publication p ON p.pid = w.pid WHERE p.jid = 2)", verdict: 'pass', rule: 'rows-any-order', says: 'matched the 2nd acceptable SQL' },
  { question: 'Which authors have published in VLDB?', expected: [VLDB_CONFERENCE, VLDB_ANYWHERE], answer: 'SELECT DISTINCT a.name FROM author a JOIN writes w ON w.aid = a.aid JOIN publication p ON p.pid = w.pid WHERE p.jid = 2', verdict: 'fail', rule: 'row-count', says: 'matches none of the 2 acceptable SQLs' },

  // Row order counts only when the question asks for one (or the case says ordered: true).
  { question: 'What is the total number of publications in each year?', expected: 'SELECT year, COUNT(*) AS publications FROM publication GROUP BY year ORDER BY year', answer: 'SELECT year, COUNT(*) FROM publication GROUP BY year ORDER BY year DESC', verdict: 'pass', rule: 'rows-any-order', says: 'the expected SQL orders, but the question asks for none' },
  { question: 'List the years and their number of publications, sorted by year.', expected: 'SELECT year, COUNT(*) AS publications FROM publication GROUP BY year ORDER BY year', answer: 'SELECT year, COUNT(*) FROM publication GROUP BY year ORDER BY year DESC', verdict: 'fail', rule: 'row-order', says: 'order counts because the question asks “sorted”' },
  { question: 'List the years and their number of publications, sorted by year.', expected: 'SELECT year, COUNT(*) AS publications FROM publication GROUP BY year ORDER BY year', answer: 'SELECT year, COUNT(*) FROM publication GROUP BY year ORDER BY 1', verdict: 'pass', rule: 'rows-in-order', says: 'same rows in the same order (the question asks “sorted”)' },
  { question: 'How many publications are there per year?', expected: 'SELECT year, COUNT(*) AS publications FROM publication GROUP BY year ORDER BY year', answer: 'SELECT year, COUNT(*) FROM publication GROUP BY year ORDER BY year DESC', ordered: true, verdict: 'fail', rule: 'row-order', says: 'order counts because ordered: true' },
  { question: 'List the years and their number of publications, sorted by year.', expected: 'SELECT year, COUNT(*) AS publications FROM publication GROUP BY year ORDER BY year', answer: 'SELECT year, COUNT(*) FROM publication GROUP BY year ORDER BY year DESC', ordered: false, verdict: 'pass', rule: 'rows-any-order', says: 'same rows in any order (ordered: false)' },
  { question: 'List the conferences alphabetically.', expected: 'SELECT name FROM conference ORDER BY name', answer: 'SELECT name FROM conference ORDER BY name DESC', verdict: 'fail', rule: 'row-order' },
  { question: 'List the conferences alphabetically.', expected: 'SELECT name FROM conference', answer: 'SELECT name FROM conference ORDER BY name DESC', verdict: 'pass', rule: 'rows-any-order', says: 'but the expected SQL has no ORDER BY to follow' },

  // When order counts, rows tying on the expected ORDER BY keys may come in any order among themselves.
  { question: 'List the titles and citations of the publications, most cited first.', expected: 'SELECT title, citation_num FROM publication ORDER BY citation_num DESC, pid', answer: 'SELECT title, citation_num FROM publication ORDER BY citation_num DESC, title DESC', verdict: 'pass', rule: 'rows-in-order', says: 'rows tying on the ORDER BY keys came in another order, which is allowed' },
  { question: 'List the titles and citations of the publications, most cited first.', expected: 'SELECT title, citation_num FROM publication ORDER BY citation_num DESC', answer: 'SELECT title, citation_num FROM publication ORDER BY citation_num ASC', verdict: 'fail', rule: 'row-order', says: 'rows tying on the ORDER BY keys may swap' },
  { question: 'List the titles of the publications, most cited first.', expected: 'SELECT title FROM publication ORDER BY citation_num DESC', answer: 'SELECT title FROM publication ORDER BY title', verdict: 'pass', rule: 'rows-in-order', says: 'ORDER BY citation_num is not a result column' },
  { question: 'Which are the top 3 most cited publications? Give title and citations.', expected: 'SELECT title, citation_num FROM publication ORDER BY citation_num DESC LIMIT 3', answer: 'SELECT title, citation_num FROM publication ORDER BY citation_num DESC, title ASC LIMIT 3', verdict: 'pass', rule: 'rows-in-order', says: 'the question asks “top 3”' },
  { question: 'Which are the top 3 most cited publications? Give title and citations.', expected: 'SELECT title, citation_num FROM publication ORDER BY citation_num DESC LIMIT 3', answer: 'SELECT title, citation_num FROM publication ORDER BY citation_num DESC LIMIT 1', verdict: 'fail', rule: 'row-count', says: 'expected 3 rows, got 1' },
  { question: 'Which 3 publications have the fewest citations, fewest first?', expected: 'SELECT title, citation_num FROM publication ORDER BY citation_num LIMIT 3', answer: 'SELECT title, citation_num FROM publication ORDER BY citation_num, title DESC LIMIT 3', verdict: 'pass', rule: 'rows-in-order' },
  { question: 'Rank the conferences by their number of publications.', expected: 'SELECT c.name, COUNT(*) AS papers FROM conference c JOIN publication p ON p.cid = c.cid GROUP BY c.name ORDER BY COUNT(*) DESC', answer: 'SELECT COUNT(*) AS n, c.name FROM conference c JOIN publication p ON p.cid = c.cid GROUP BY c.name ORDER BY n DESC', verdict: 'pass', rule: 'rows-in-order', says: 'columns matched by content in another order' },
  { question: 'Rank the conferences by their number of publications.', expected: 'SELECT c.name, COUNT(*) AS papers FROM conference c JOIN publication p ON p.cid = c.cid GROUP BY c.name ORDER BY COUNT(*) DESC', answer: 'SELECT c.name, COUNT(*) AS n FROM conference c JOIN publication p ON p.cid = c.cid GROUP BY c.name ORDER BY n ASC', verdict: 'fail', rule: 'row-order' },
  { question: 'List the organisations and their number of authors, sorted by the number of authors, descending.', expected: 'SELECT o.name, COUNT(*) AS authors FROM organization o JOIN author a ON a.oid = o.oid GROUP BY o.name ORDER BY authors DESC', answer: 'SELECT o.name, COUNT(*) AS authors FROM organization o JOIN author a ON a.oid = o.oid GROUP BY o.name ORDER BY 2 DESC, 1 DESC', verdict: 'pass', rule: 'rows-in-order' },
  { question: 'List the organisations and their number of authors, sorted by the number of authors, descending.', expected: 'SELECT o.name, COUNT(*) AS authors FROM organization o JOIN author a ON a.oid = o.oid GROUP BY o.name ORDER BY authors DESC', answer: 'SELECT o.name, COUNT(*) AS authors FROM organization o JOIN author a ON a.oid = o.oid GROUP BY o.name ORDER BY 2 ASC', verdict: 'fail', rule: 'row-order' },
  { question: 'Show each year with its number of publications and average citations, in chronological order.', expected: 'SELECT year, COUNT(*) AS papers, AVG(citation_num) AS citations FROM publication GROUP BY year ORDER BY year', answer: 'SELECT AVG(citation_num) AS mean, year, COUNT(*) AS n, MAX(title) AS example FROM publication GROUP BY year ORDER BY year', verdict: 'pass', rule: 'rows-in-order', says: 'extra column example ignored' },

  // Numbers: within a relative 1e-6, or at the expected value's scale when it is rounded.
  { question: 'What is the average amount of the completed orders?', expected: "SELECT AVG(amount) FROM orders WHERE status = 'completed'", answer: "SELECT CAST(AVG(amount) AS FLOAT8) AS average FROM orders WHERE status = 'completed'", verdict: 'pass', rule: 'rows-any-order' },
  { question: 'What is the average number of citations of the publications of 2021, rounded to two decimals?', expected: 'SELECT ROUND(AVG(citation_num), 2) FROM publication WHERE year = 2021', answer: 'SELECT AVG(citation_num) FROM publication WHERE year = 2021', verdict: 'pass', rule: 'rows-any-order', says: 'numbers equal within 1e-6 or at the expected scale' },
  { question: 'What is the average number of citations of the publications of 2021?', expected: 'SELECT AVG(citation_num) FROM publication WHERE year = 2021', answer: 'SELECT ROUND(AVG(citation_num), 1) FROM publication WHERE year = 2021', verdict: 'fail', rule: 'columns' },
  { question: 'What is the total amount of all orders?', expected: 'SELECT SUM(amount) FROM orders', answer: 'SELECT SUM(CAST(amount AS FLOAT8)) FROM orders', verdict: 'pass', rule: 'rows-any-order' },
  { question: 'What is the total amount of all orders?', expected: 'SELECT SUM(amount) FROM orders', answer: 'SELECT SUM(amount) * 1.001 FROM orders', verdict: 'fail', rule: 'columns' },
  { question: 'What is one third?', expected: 'SELECT CAST(1 AS FLOAT8) / 3', answer: 'SELECT 0.3333333334', verdict: 'pass', rule: 'rows-any-order', says: 'numbers equal within 1e-6' },
  { question: 'What is one third?', expected: 'SELECT CAST(1 AS FLOAT8) / 3', answer: 'SELECT 0.33334', verdict: 'fail', rule: 'columns' },
  { question: 'What did order 4 cost?', expected: 'SELECT amount FROM orders WHERE order_id = 4', answer: 'SELECT CAST(amount AS INTEGER) FROM orders WHERE order_id = 4', verdict: 'pass', rule: 'rows-any-order' },
  { question: 'What did order 1 cost?', expected: 'SELECT amount FROM orders WHERE order_id = 1', answer: 'SELECT CAST(amount AS INTEGER) FROM orders WHERE order_id = 1', verdict: 'fail', rule: 'columns' },

  // Numeric text equals the number (where Glassbox departs from defog and Spider).
  { question: 'How many orders did acme place?', expected: "SELECT CAST(COUNT(*) AS INTEGER) FROM orders WHERE customer = 'acme'", answer: "SELECT CAST(COUNT(*) AS VARCHAR) FROM orders WHERE customer = 'acme'", verdict: 'pass', rule: 'rows-any-order', says: 'numeric text read as numbers' },
  { question: 'What did order 3 cost?', expected: 'SELECT amount FROM orders WHERE order_id = 3', answer: 'SELECT CAST(amount AS VARCHAR) FROM orders WHERE order_id = 3', verdict: 'pass', rule: 'rows-any-order' },
  { question: 'What is the status of order 1?', expected: 'SELECT status FROM orders WHERE order_id = 1', answer: 'SELECT UPPER(status) FROM orders WHERE order_id = 1', verdict: 'fail', rule: 'columns' },

  // Dates equal midnight timestamps; other times do not.
  { question: 'When was order 3 placed?', expected: 'SELECT order_date FROM orders WHERE order_id = 3', answer: 'SELECT CAST(order_date AS TIMESTAMP) FROM orders WHERE order_id = 3', verdict: 'pass', rule: 'rows-any-order', says: 'a date equals its midnight timestamp' },
  { question: 'When was order 2 created?', expected: 'SELECT created_at FROM orders WHERE order_id = 2', answer: 'SELECT CAST(created_at AS DATE) FROM orders WHERE order_id = 2', verdict: 'fail', rule: 'columns' },
  { question: 'When was order 3 placed?', expected: 'SELECT order_date FROM orders WHERE order_id = 3', answer: 'SELECT CAST(order_date AS VARCHAR) FROM orders WHERE order_id = 3', verdict: 'pass', rule: 'rows-any-order' },
  { question: 'How many orders were placed in each month of 2024?', expected: "SELECT CAST(date_trunc('month', order_date) AS DATE) AS month, COUNT(*) AS orders FROM orders GROUP BY 1", answer: "SELECT CAST(date_trunc('month', order_date) AS TIMESTAMP) AS m, COUNT(*) FROM orders GROUP BY 1", verdict: 'pass', rule: 'rows-any-order', says: 'a date equals its midnight timestamp' },
  { question: 'Which orders were created at midnight?', expected: "SELECT order_id FROM orders WHERE CAST(created_at AS DATE) = created_at", answer: "SELECT order_id FROM orders WHERE order_id IN (1, 3, 5, 6)", verdict: 'pass', rule: 'rows-any-order' },

  // NULL equals NULL, and nothing else.
  { question: 'What is the homepage of Grace Hopper?', expected: "SELECT homepage FROM author WHERE name = 'Grace Hopper'", answer: "SELECT a.homepage FROM author a WHERE a.aid = 3", verdict: 'pass', rule: 'rows-any-order' },
  { question: 'What is the homepage of Grace Hopper?', expected: "SELECT homepage FROM author WHERE name = 'Grace Hopper'", answer: "SELECT COALESCE(homepage, '') FROM author WHERE name = 'Grace Hopper'", verdict: 'fail', rule: 'columns' },
  { question: 'What did order 6 cost?', expected: 'SELECT amount FROM orders WHERE order_id = 6', answer: 'SELECT COALESCE(amount, 0) FROM orders WHERE order_id = 6', verdict: 'fail', rule: 'columns' },
  { question: 'Which authors have a homepage? Give each name and whether there is one.', expected: 'SELECT name, homepage IS NOT NULL AS has_homepage FROM author', answer: 'SELECT name, CASE WHEN homepage IS NULL THEN false ELSE true END FROM author', verdict: 'pass', rule: 'rows-any-order' },

  // Duplicate rows count by default (Spider, nao); `duplicates: ignore` compares sets (defog).
  { question: 'Which authors have written a publication in 2021?', expected: `SELECT DISTINCT a.name ${AUTHORS_2021}`, answer: `SELECT a.name ${AUTHORS_2021}`, verdict: 'fail', rule: 'row-count', says: 'duplicates count unless the case says duplicates: ignore' },
  { question: 'Which authors have written a publication in 2021?', expected: `SELECT DISTINCT a.name ${AUTHORS_2021}`, answer: `SELECT a.name ${AUTHORS_2021}`, duplicates: 'ignore', verdict: 'pass', rule: 'rows-any-order', says: 'duplicate rows ignored (duplicates: ignore)' },
  { question: 'Which authors have written a publication in 2021?', expected: `SELECT DISTINCT a.name ${AUTHORS_2021}`, answer: `SELECT a.name, p.title ${AUTHORS_2021}`, verdict: 'fail', rule: 'row-count', says: 'expected 4 rows, got 5 — the same rows, but repeated a different number of times' },
  { question: 'Which authors have written a publication in 2021?', expected: `SELECT DISTINCT a.name ${AUTHORS_2021}`, answer: `SELECT a.name, p.title ${AUTHORS_2021}`, duplicates: 'ignore', verdict: 'pass', rule: 'rows-any-order', says: 'extra column title ignored; duplicate rows ignored (duplicates: ignore)' },
  { question: 'List the authors of 2021 alphabetically, each once.', expected: `SELECT DISTINCT a.name ${AUTHORS_2021} ORDER BY a.name`, answer: `SELECT a.name, p.title ${AUTHORS_2021} ORDER BY a.name, p.title`, duplicates: 'ignore', verdict: 'pass', rule: 'rows-in-order' },
  { question: 'List the year of every publication.', expected: 'SELECT year FROM publication', answer: 'SELECT DISTINCT year FROM publication', verdict: 'fail', rule: 'row-count', says: 'expected 8 rows, got 4' },
  { question: 'List the year of every publication.', expected: 'SELECT year FROM publication', answer: 'SELECT DISTINCT year FROM publication', duplicates: 'ignore', verdict: 'pass', rule: 'rows-any-order' },
  { question: 'Which authors have written a publication in 2021?', expected: `SELECT DISTINCT a.name ${AUTHORS_2021}`, answer: `SELECT DISTINCT a.name ${AUTHORS_2021} AND p.cid IS NOT NULL`, duplicates: 'ignore', verdict: 'fail', rule: 'row-count', says: 'expected 4 distinct rows, got 2' },

  // Wrong answers fail, whatever the leniency above.
  { question: 'How many completed orders are there?', expected: "SELECT COUNT(*) FROM orders WHERE status = 'completed'", answer: 'SELECT COUNT(*) FROM orders', verdict: 'fail', rule: 'columns' },
  { question: 'What is the total amount of the completed orders?', expected: "SELECT SUM(amount) FROM orders WHERE status = 'completed'", answer: "SELECT COUNT(amount) FROM orders WHERE status = 'completed'", verdict: 'fail', rule: 'columns' },
  { question: 'What is the total amount of the completed orders?', expected: "SELECT SUM(amount) FROM orders WHERE status = 'completed'", answer: "SELECT MAX(amount) FROM orders WHERE status = 'completed'", verdict: 'fail', rule: 'columns' },
  { question: 'How many publications does each conference have?', expected: 'SELECT c.name, COUNT(*) FROM conference c JOIN publication p ON p.cid = c.cid GROUP BY c.name', answer: 'SELECT c.name, COUNT(*) FROM conference c JOIN publication p ON p.cid = c.cid JOIN writes w ON w.pid = p.pid GROUP BY c.name', verdict: 'fail', rule: 'columns', says: 'expected column 2' },
  { question: 'Which publications appeared since 2020?', expected: 'SELECT title FROM publication WHERE year >= 2020', answer: 'SELECT title FROM publication WHERE year > 2020', verdict: 'fail', rule: 'row-count', says: 'expected 6 rows, got 4' },
  { question: 'Which customers placed an order?', expected: 'SELECT DISTINCT customer FROM orders', answer: "SELECT DISTINCT customer FROM orders WHERE status = 'completed'", verdict: 'fail', rule: 'row-count' },

  // Empty results.
  { question: 'Which publications appeared in 2030?', expected: 'SELECT title FROM publication WHERE year = 2030', answer: 'SELECT title, year FROM publication WHERE year = 2030', verdict: 'pass', rule: 'rows-any-order' },
  { question: 'Which publications appeared in 2030?', expected: 'SELECT title FROM publication WHERE year = 2030', answer: 'SELECT title FROM publication WHERE year = 2022', verdict: 'fail', rule: 'row-count', says: 'expected 0 rows, got 1' },
  { question: 'Which publications appeared in 2022?', expected: 'SELECT title FROM publication WHERE year = 2022', answer: 'SELECT title FROM publication WHERE year = 2023', verdict: 'fail', rule: 'row-count', says: 'expected 1 row, got 0' }
]
