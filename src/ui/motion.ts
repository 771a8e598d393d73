/** How to scroll something into view: at once for a user who asked the system for less motion, smoothly otherwise. */
export function scrollMotion(): ScrollBehavior {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}
