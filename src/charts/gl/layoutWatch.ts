// Keeps the one fixed canvas true to the DOM boxes it draws into. The renderer reads each
// block's box in the frame that draws, so all it needs is a frame whenever a box may have
// moved: a block resized or entered/left the viewport, the page (or any scroll container)
// scrolled or resized, or the DOM changed outside the plots (a panel opened above the
// charts, a list grew, a details element toggled). Frames coalesce, so a burst of changes
// costs one draw.

/** Elements whose own changes never move a block (tooltips, selections, readouts inside plots). */
const INERT = '.plot, .overview, .chart-stats, .span-readout, .time-axis';

/** CSS properties whose transition can move or resize a box (not colours, shadows, opacity). */
const MOVING = /^(transform|translate|scale|rotate|left|top|right|bottom|inset.*|width|height|(min|max)-(width|height)|margin.*|padding.*|grid-template-.*|flex.*|border.*-width)$/;

/** Longest a layout transition is followed without its end being seen (an element removed mid-way sends none). */
const MAX_FOLLOW_MS = 2_000;

/** Watches the layout and calls `onChange` when a block's box may have moved. */
export class LayoutWatch {
  private readonly resize: ResizeObserver | null;
  private readonly intersect: IntersectionObserver | null;
  private readonly mutations: MutationObserver | null;
  private readonly watched = new WeakSet<Element>();
  /** Layout transitions running (element → properties), followed frame by frame until they end. */
  private readonly sliding = new Map<EventTarget, Set<string>>();
  private followUntil = 0;
  private following = 0;

  constructor(private readonly onChange: () => void) {
    const has = (name: string) => typeof (globalThis as Record<string, unknown>)[name] === 'function';
    this.resize = has('ResizeObserver') ? new ResizeObserver(() => onChange()) : null;
    // Thresholds every 10 %: a block sliding into or out of view asks for frames on the way.
    this.intersect = has('IntersectionObserver')
      ? new IntersectionObserver(() => onChange(), { threshold: Array.from({ length: 11 }, (_, i) => i / 10) })
      : null;
    this.mutations = has('MutationObserver')
      ? new MutationObserver((records) => {
          if (records.some((r) => !LayoutWatch.inert(r.target))) onChange();
        })
      : null;
    if (typeof document !== 'undefined') {
      this.resize?.observe(document.documentElement);
      if (document.body) {
        this.resize?.observe(document.body);
        this.mutations?.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class', 'style', 'open', 'hidden', 'aria-expanded'] });
      }
      // Capture: scrolls of inner containers do not bubble to window.
      document.addEventListener('scroll', onChange, { capture: true, passive: true });
      window.addEventListener('resize', onChange);
      document.addEventListener('transitionend', onChange, true);
      document.addEventListener('animationend', onChange, true);
      // A box the layout slides to its place (a dashboard tile, the sidebar's width) moves with
      // no event on the way: a frame each display frame while such a transition runs.
      document.addEventListener('transitionrun', this.onTransitionRun, true);
      document.addEventListener('transitionend', this.onTransitionStop, true);
      document.addEventListener('transitioncancel', this.onTransitionStop, true);
    }
  }

  private readonly onTransitionRun = (event: Event): void => {
    const property = (event as TransitionEvent).propertyName;
    if (!event.target || !MOVING.test(property)) return;
    let set = this.sliding.get(event.target);
    if (!set) this.sliding.set(event.target, (set = new Set()));
    set.add(property);
    this.followUntil = performance.now() + MAX_FOLLOW_MS;
    if (!this.following && typeof requestAnimationFrame === 'function') this.following = requestAnimationFrame(this.follow);
  };

  private readonly onTransitionStop = (event: Event): void => {
    const set = event.target ? this.sliding.get(event.target) : undefined;
    if (!set) return;
    set.delete((event as TransitionEvent).propertyName);
    if (set.size === 0) this.sliding.delete(event.target!);
  };

  /** One frame of a running layout transition: a draw, and the next frame while any still runs. */
  private readonly follow = (now: number): void => {
    this.following = 0;
    for (const target of this.sliding.keys()) if ((target as Partial<Node>).isConnected === false) this.sliding.delete(target);
    if (now > this.followUntil) this.sliding.clear();
    this.onChange();
    if (this.sliding.size > 0) this.following = requestAnimationFrame(this.follow);
  };

  /** A mutation inside a plot (tooltip, selection box) or a readout cannot move any block. */
  private static inert(node: Node): boolean {
    const el = node instanceof Element ? node : node.parentElement;
    return Boolean(el?.closest(INERT));
  }

  /** Starts watching a block's box (idempotent). */
  watch(el: Element): void {
    if (this.watched.has(el)) return;
    this.watched.add(el);
    this.resize?.observe(el);
    this.intersect?.observe(el);
  }

  /** Stops watching a block's box. */
  unwatch(el: Element): void {
    if (!this.watched.has(el)) return;
    this.watched.delete(el);
    this.resize?.unobserve(el);
    this.intersect?.unobserve(el);
  }

  /** Stops every observer and listener. */
  destroy(): void {
    this.resize?.disconnect();
    this.intersect?.disconnect();
    this.mutations?.disconnect();
    if (typeof document !== 'undefined') {
      document.removeEventListener('scroll', this.onChange, { capture: true });
      window.removeEventListener('resize', this.onChange);
      document.removeEventListener('transitionend', this.onChange, true);
      document.removeEventListener('animationend', this.onChange, true);
      document.removeEventListener('transitionrun', this.onTransitionRun, true);
      document.removeEventListener('transitionend', this.onTransitionStop, true);
      document.removeEventListener('transitioncancel', this.onTransitionStop, true);
    }
    if (this.following) cancelAnimationFrame(this.following);
    this.sliding.clear();
  }
}
