// Types for scripts/cli-bundle.mjs (plain JavaScript: it runs before any TypeScript tooling is set up).
export declare const ROOT: string
export declare const OUT_DIR: string
export declare const CACHED_ENTRY: string
export declare function buildCli(): Promise<void>
export declare const LAZY_PACKAGES: readonly string[]
export declare function asciiOnly(code: string): string
export declare function routeDynamicImports(code: string): string
export declare function staleReason(outDir?: string, root?: string): string | null
export declare function wrapScript(code: string): string
export declare function loadWithCodeCache(file: string): { exports: Record<string, unknown>; cacheAccepted: boolean; saveCache(): void }
export declare function builtEntry(name: 'cli' | 'web', log?: (line: string) => void): Promise<string>
export declare function packageOf(input: string): string | null
