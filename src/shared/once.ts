/**
 * `make`, called the first time the result is asked for and kept. For what a module would otherwise build
 * when it loads and few of its users need (a tool's input schema: only its calls are checked against it).
 */
export function once<T>(make: () => T): () => T {
  let made = false
  let value: T
  return () => {
    if (!made) {
      value = make()
      made = true
    }
    return value
  }
}
