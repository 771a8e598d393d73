import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { DEMO, launchChromium, newPage, outboxCode, signInThroughForm, startAppServer, type AppServer } from './harness';

let server: AppServer;
let browser: Browser;
beforeAll(async () => {
  server = await startAppServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const path = (page: Page) => new URL(page.url()).pathname;

/** Keeps a read-write transaction open on the channel cache's stores, so logout's emptying waits. */
async function holdChannelCache(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open('nocturne-cache', 1);
        open.onupgradeneeded = () => {
          open.result.createObjectStore('channel-data');
          open.result.createObjectStore('access-time');
        };
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction(['channel-data', 'access-time'], 'readwrite');
          const w = window as unknown as { releaseCache?: boolean };
          w.releaseCache = false;
          const spin = () => {
            const get = tx.objectStore('access-time').get('none');
            get.onsuccess = () => (w.releaseCache ? db.close() : spin());
          };
          spin();
          resolve();
        };
      }),
  );
}

/**
 * Lets the held transaction end, then waits until the cache's emptying behind it has finished
 * (a read-only transaction queued after it) and the page has handled what followed.
 */
async function releaseChannelCacheAndSettle(page: Page): Promise<void> {
  await page.evaluate(async () => {
    (window as unknown as { releaseCache?: boolean }).releaseCache = true;
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('nocturne-cache', 1);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    await new Promise<void>((resolve) => {
      const tx = db.transaction(['channel-data'], 'readonly');
      tx.objectStore('channel-data').count();
      tx.oncomplete = () => resolve();
    });
    db.close();
    for (let i = 0; i < 5; i++) await new Promise((resolve) => { const c = new MessageChannel(); c.port1.onmessage = resolve; c.port2.postMessage(0); });
  });
}
const title = (page: Page) => page.getByTestId('page-title').innerText();

describe('a physician', () => {
  it('signs in with password and mailed code, walks the sidebar, reloads, logs out', async () => {
    const { context, page, errors } = await newPage(browser, server.url);
    await page.goto('/');
    await page.getByTestId('signin-email').waitFor();
    await expect.poll(() => page.getByText(/terms/i).first().isVisible()).toBe(true);

    await signInThroughForm(page, server.url, DEMO.physician);
    await page.getByTestId('dashboard').waitFor();
    expect(path(page)).toMatch(/^\/app\/?$/);
    expect(await title(page)).toBe('Dashboard');
    await expect.poll(() => page.getByTestId('dashboard').innerText()).toContain('Clara');

    // The signal engine answers from its web worker (WebAssembly, through comlink).
    const engine = page.getByTestId('engine-status');
    await expect.poll(() => engine.getAttribute('data-ok'), { timeout: 20_000 }).toBe('true');
    expect(await engine.getAttribute('data-mode')).toBe('worker');

    const walk: Array<[string, RegExp, string]> = [
      ['nav-patients', /^\/app\/patients$/, 'My Patients'],
      ['nav-realtime', /^\/app\/realtimeDashboard$/, 'Real-time dashboard'],
      ['nav-device-config', /^\/app\/device_config$/, 'Device Config'],
      ['nav-datacenter', /^\/app\/datacenter$/, 'Data Center'],
      ['nav-dashboard', /^\/app\/?$/, 'Dashboard'],
    ];
    for (const [testId, url, heading] of walk) {
      await page.getByTestId(testId).click();
      await page.waitForURL((u) => url.test(u.pathname));
      await expect.poll(() => title(page)).toBe(heading);
    }
    await page.getByTestId('nav-patients').click();
    await page.getByTestId('patients-table').waitFor();
    expect(await page.getByTestId('patient-row').count()).toBe(5);
    await expect.poll(() => page.getByTestId('patients-table').innerText()).toContain('NCT1001');

    await page.reload();
    await page.getByTestId('patients-table').waitFor();
    expect(path(page)).toBe('/app/patients');

    await page.getByTestId('logout-button').click();
    await expect.poll(() => page.getByRole('dialog').innerText()).toContain('Are you sure you want to logout ?');
    await page.getByTestId('logout-cancel').click();
    expect(path(page)).toBe('/app/patients');
    await page.getByTestId('logout-button').click();
    await page.getByTestId('logout-confirm').click();
    await page.getByTestId('signin-email').waitFor();
    const stored = await page.evaluate(() => JSON.stringify(localStorage));
    expect(stored).not.toMatch(/token/i);
    await page.goto('/app/patients');
    await page.getByTestId('signin-email').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  it('comes back to the page it asked for after signing in', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/app/patients');
    await page.getByTestId('signin-email').waitFor();
    await signInThroughForm(page, server.url, DEMO.physician);
    await page.getByTestId('patients-table').waitFor();
    expect(path(page)).toBe('/app/patients');
    // Signed in, the sign-in pages lead to the app root.
    await page.goto('/signin');
    await page.getByTestId('dashboard').waitFor();
    await page.goto('/forgot_password');
    await page.getByTestId('dashboard').waitFor();
    await context.close();
  });

  it('shows the spec message for a wrong password, at /app/signin too', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/app/signin');
    await page.getByTestId('signin-email').fill(DEMO.physician);
    await page.getByTestId('signin-password').fill('wrong-password');
    await page.getByTestId('signin-submit').click();
    await expect.poll(() => page.getByTestId('signin-error').innerText()).toBe('Invalid email or password!');
    await context.close();
  });

  it('is signed out when the server says its token is no longer valid', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/app/signin');
    await signInThroughForm(page, server.url, DEMO.physician);
    await page.getByTestId('dashboard').waitFor();
    // The dashboard's own calls (widgets, notifications) finish first, so the next call
    // the page makes is the one the user's click causes.
    await page.getByTestId('dashboard-widgets').waitFor();
    await page.waitForLoadState('networkidle');
    // Revoke the session behind the page's back, as an expiry would.
    const token = await page.evaluate(() => {
      for (let i = 0; i < localStorage.length; i++) {
        const v = localStorage.getItem(localStorage.key(i)!) ?? '';
        const m = /"token":"([^"]+)"/.exec(v);
        if (m) return m[1];
      }
      return null;
    });
    expect(token).toBeTruthy();
    const res = await fetch(`${server.url}/api/v1/logout`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    // The user's click makes the page's next call, unless a call of the page's own (a poll) got
    // there first and already signed out: the link is clicked where it still is, not waited for
    // (a Playwright click retried on a link that sign-out had removed, for 30 s, in CI).
    await page.evaluate(() => document.querySelector<HTMLElement>('[data-testid="nav-patients"]')?.click());
    await page.getByTestId('signin-email').waitFor();
    expect(await page.evaluate(() => localStorage.length + sessionStorage.length)).toBeLessThanOrEqual(1);
    await context.close();
  });

  it('is signed out after 8 hours without activity', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.clock.install();
    await page.goto('/app/signin');
    await signInThroughForm(page, server.url, DEMO.physician);
    await page.getByTestId('dashboard').waitFor();
    await page.clock.fastForward('07:59:00');
    await page.mouse.move(200, 300);
    await page.clock.fastForward('07:59:00');
    expect(await page.getByTestId('dashboard').isVisible()).toBe(true);
    // The channel cache is busy (a slow disk, a loaded machine): emptying it must not land the
    // user on a second sign-in page after they began typing in the first.
    await holdChannelCache(page);
    await page.clock.fastForward('08:00:01');
    await page.getByTestId('signin-email').waitFor();
    // The sign-in page says why (issue 32.12), until the next sign-in.
    expect(await page.getByTestId('signed-out-idle').innerText()).toBe('You were signed out after 8 hours without activity. Sign in again to continue.');
    await page.getByTestId('signin-email').fill(DEMO.physician);
    await releaseChannelCacheAndSettle(page);
    expect(await page.getByTestId('signin-email').inputValue()).toBe(DEMO.physician);
    await signInThroughForm(page, server.url, DEMO.physician);
    await page.getByTestId('dashboard').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('nocturne.signOutReason'))).toBeNull();
    await context.close();
  });

  it('switching to Arabic flips the layout right-to-left', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/app/signin');
    await signInThroughForm(page, server.url, DEMO.physician);
    await page.getByTestId('dashboard').waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).not.toBe('rtl');
    const sidebarLeft = await page.getByTestId('sidebar').boundingBox();
    await page.getByTestId('language-select').selectOption({ value: 'ar-SA' });
    await expect.poll(() => page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    const sidebarRight = await page.getByTestId('sidebar').boundingBox();
    expect(sidebarLeft!.x).toBeLessThan(100);
    expect(sidebarRight!.x).toBeGreaterThan(600);
    await context.close();
  });

  it('a user who asked the system for less motion sees the spinner stand still and the sidebar not slide', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/app/signin');
    await signInThroughForm(page, server.url, DEMO.physician);
    await page.getByTestId('dashboard').waitFor();
    // The app's own spinner and sidebar, as the built stylesheet animates them.
    const motion = () =>
      page.evaluate(() => {
        const spinner = document.body.appendChild(Object.assign(document.createElement('span'), { className: 'spinner' }));
        const s = getComputedStyle(spinner);
        const out = { spinner: `${s.animationName} ${s.animationIterationCount}`, sidebar: getComputedStyle(document.querySelector('.app')!).transitionDuration };
        spinner.remove();
        return out;
      });
    const moving = await motion();
    expect(moving).toEqual({ spinner: 'spin infinite', sidebar: '0.16s' });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const still = await motion();
    expect(still.spinner).toBe('spin 1');
    expect(parseFloat(still.sidebar)).toBeLessThan(0.001);
    await context.close();
  });
});

describe('an annotator', () => {
  it('lands on My Patients, has no Dashboard, Real Time or Device Config, and no add-patient routes', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/signin');
    await signInThroughForm(page, server.url, DEMO.annotator);
    await page.getByTestId('patients-table').waitFor();
    expect(path(page)).toBe('/app/patients');
    expect(await title(page)).toBe('My Patients');
    expect(await page.getByTestId('nav-dashboard').count()).toBe(0);
    expect(await page.getByTestId('nav-device-config').count()).toBe(0);
    expect(await page.getByTestId('nav-realtime').count()).toBe(0);
    expect(await page.getByTestId('nav-patients').count()).toBe(1);
    for (const live of ['/app/realtimeDashboard', '/app/device_testing?id=1&did=NCT0001', '/app/device_config']) {
      await page.goto(live);
      await page.getByTestId('not-found').waitFor();
      // The dashboard's collapsed sidebar is for those who get the dashboard.
      expect(await page.getByTestId('sidebar').getAttribute('class')).toMatch(/is-open/);
    }
    await page.goto('/app/new_patient');
    await expect.poll(() => page.getByTestId('not-found').innerText()).toContain('Oops, an error has occurred. Page not found!');
    await page.goto('/app/add-patient');
    await page.getByTestId('not-found').waitFor();
    await page.goto('/app/');
    await page.waitForURL(/\/app\/patients$/);
    await context.close();
  });
});

describe('accounts', () => {
  it('a stranger signs up and sees the spec texts', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/signup');
    await page.getByTestId('signup-first-name').fill('Maya');
    await page.getByTestId('signup-last-name').fill('Okafor');
    await page.getByTestId('signup-email').fill('maya.okafor@lakeside.test');
    await page.getByTestId('signup-password').fill('a-good-password');
    await page.getByTestId('signup-country').selectOption({ label: 'Switzerland' });
    await page.getByTestId('signup-submit').click();
    const success = page.getByTestId('signup-success');
    await expect.poll(() => success.innerText()).toContain('Account successfully created');
    expect(await success.innerText()).toContain('Congratulations. You already made it. Please verify your email address and we will contact you soon.');
    await context.close();
  });

  it('a user who forgot the password resets it with a mailed code and signs in with the new one', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/forgot_password');
    await page.getByTestId('forgot-email').fill(DEMO.secondary);
    await page.getByTestId('forgot-submit').click();
    await page.getByTestId('forgot-otp').waitFor();
    await page.getByTestId('forgot-otp').fill(await outboxCode(server.url, DEMO.secondary));
    await page.getByTestId('forgot-submit').click();
    await page.getByTestId('forgot-password').waitFor();
    await page.getByTestId('forgot-password').fill('brand-new-password');
    await page.getByTestId('forgot-password-confirm').fill('brand-new-password');
    await page.getByTestId('forgot-submit').click();
    await page.getByText(/password has been reset|password reset/i).first().waitFor();
    await page.goto('/signin');
    await signInThroughForm(page, server.url, DEMO.secondary, 'brand-new-password');
    await page.getByTestId('dashboard').waitFor();
    await context.close();
  });

  it('the not-found screen answers unknown paths', async () => {
    const { context, page } = await newPage(browser, server.url);
    await page.goto('/app/signin');
    await signInThroughForm(page, server.url, DEMO.physician);
    await page.getByTestId('dashboard').waitFor();
    await page.goto('/app/no-such-screen');
    await expect.poll(() => page.getByTestId('not-found').innerText()).toContain('Page not found!');
    // A path whose first part names a screen, but no page of it: titled as what is shown, not as the screen.
    for (const path of ['/app/dashboard', '/app/reports/nonsense', '/app/patients/id=abc']) {
      await page.goto(path);
      await page.getByTestId('not-found').waitFor();
      await expect.poll(() => page.getByTestId('page-title').innerText(), { message: path }).toBe('Page not found');
      expect(await page.title(), path).toBe('Page not found · Nocturne');
    }
    // Leaving the not-found page for a screen gives the screen its title again.
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await page.getByTestId('dashboard').waitFor();
    await expect.poll(() => page.getByTestId('page-title').innerText()).toBe('Dashboard');
    await page.goto('/app/privacy-policy');
    await page.getByTestId('document-privacy').waitFor();
    await context.close();
  });
});
