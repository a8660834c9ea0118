/** A token count taken when first read, then kept; the closure (which may hold a long text) is released. */
export class LazyCount {
  private compute: (() => number) | null
  private value = 0

  constructor(compute: () => number) {
    this.compute = compute
  }

  get known(): boolean {
    return this.compute === null
  }

  read(): number {
    if (this.compute) {
      this.value = this.compute()
      this.compute = null
    }
    return this.value
  }
}
