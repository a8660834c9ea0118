import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { expect, it } from 'vitest'

// No module may depend on itself through others: a circle of imports makes load order matter, and a module
// in one can see another half-initialised. Types-only imports count too, since they still tie the files'
// reasons to change together. Every relative import of src/ is followed (static, `export … from` and
// dynamic `import()`); any circle fails the test.

const SRC = resolve(import.meta.dirname, '..')


const IMPORT = /(?:^|[\s;])(?:import|export)\s(?:[^'";]*?\sfrom\s)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.tsx?$/.test(name) && !/\.d\.ts$/.test(name) ? [path] : []
  })
}

function resolveImport(from: string, specifier: string): string | null {
  const base = resolve(dirname(from), specifier)
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile()) ?? null
}

export function importGraph(files: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, '')
    const targets = [...text.matchAll(IMPORT)].flatMap((match) => {
      const target = resolveImport(file, match[1] ?? match[2])
      return target ? [target] : []
    })
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** Strongly connected components with more than one file (Tarjan), each as sorted paths relative to src/. */
export function cyclesOf(graph: Map<string, string[]>): string[][] {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (node: string): void => {
    index.set(node, counter)
    low.set(node, counter)
    counter++
    stack.push(node)
    onStack.add(node)
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0))
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    for (;;) {
      const member = stack.pop()
      if (member === undefined) break
      onStack.delete(member)
      component.push(member)
      if (member === node) break
    }
    if (component.length > 1) cycles.push(component.map((file) => relative(SRC, file)).sort())
  }
  for (const node of graph.keys()) if (!index.has(node)) visit(node)
  return cycles.sort((a, b) => a[0].localeCompare(b[0]))
}

it('finds a circle of imports, types-only and dynamic ones included', () => {
  const graph = new Map([
    [join(SRC, 'a.ts'), [join(SRC, 'b.ts')]],
    [join(SRC, 'b.ts'), [join(SRC, 'c.ts')]],
    [join(SRC, 'c.ts'), [join(SRC, 'a.ts')]],
    [join(SRC, 'd.ts'), [join(SRC, 'a.ts')]]
  ])
  expect(cyclesOf(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']])
})

it('src/ has no circle of imports', () => {
  const graph = importGraph(sourceFiles(SRC))
  // The walk must really see the imports: the composition root reaches far.
  expect(graph.get(join(SRC, 'main/app/create-glassbox.ts'))?.length).toBeGreaterThan(10)
  expect(cyclesOf(graph)).toEqual([])
})
