/** One step of building the app: its name, the steps that must have run before it, and what it does. */
export interface Step<A> {
  name: string;
  after?: readonly string[];
  run: (app: A) => unknown;
}

/**
 * Runs the steps in the order listed, each awaited; a step listed before one it needs is refused
 * when the app is built, so an order dependency is stated where it is, not kept by luck.
 */
export async function compose<A>(app: A, steps: readonly Step<A>[]): Promise<void> {
  const done = new Set<string>();
  for (const step of steps) {
    const missing = (step.after ?? []).filter((name) => !done.has(name));
    if (missing.length > 0) throw new Error(`Building the app: "${step.name}" must come after ${missing.map((m) => `"${m}"`).join(', ')}.`);
    await step.run(app);
    done.add(step.name);
  }
}
