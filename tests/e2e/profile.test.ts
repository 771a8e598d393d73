import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { DEMO, newPage, outboxCode, signInThroughForm, ownAppAndBrowser } from './harness';

const app = ownAppAndBrowser();

/** GET of the API with the page's session token; bytes as an array (for images) or JSON. */
function apiFetch(page: Page, path: string, bytes = false): Promise<unknown> {
  return page.evaluate(
    async ([p, b]) => {
      const key = Object.keys(localStorage).find((k) => k.includes('session'))!;
      const { token } = JSON.parse(localStorage.getItem(key)!) as { token: string };
      const res = await fetch(`/api/v1${p}`, { headers: { Authorization: `Bearer ${token}` } });
      if (b) return { status: res.status, type: res.headers.get('content-type'), bytes: [...new Uint8Array(await res.arrayBuffer())] };
      return res.json();
    },
    [path, bytes] as const,
  );
}

/** A real PNG drawn by the page's canvas (64×64, two colours). */
async function makePng(page: Page): Promise<Buffer> {
  const b64 = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 64;
    c.height = 64;
    const g = c.getContext('2d')!;
    g.fillStyle = '#1d4ed8';
    g.fillRect(0, 0, 64, 64);
    g.fillStyle = '#fbbf24';
    g.fillRect(16, 16, 32, 32);
    return c.toDataURL('image/png').split(',')[1];
  });
  return Buffer.from(b64, 'base64');
}

const fieldError = (page: Page, testId: string) => page.getByTestId(testId).locator('xpath=..').locator('.field-error');

describe('the profile popup', () => {
  it('shows the profile, validates with the spec words, uploads, previews, serves and removes the image', async () => {
    const { context, page, errors } = await newPage(app.browser, app.url);
    await page.goto('/');
    await signInThroughForm(page, app.url, DEMO.physician);
    await page.getByTestId('header-user').click();
    const dialog = page.getByTestId('profile-dialog');
    await expect.poll(() => dialog.getByTestId('profile-view').innerText()).toContain(DEMO.physician);
    expect(await dialog.innerText()).toContain('Non-paid');
    await page.getByTestId('profile-edit').click();
    await page.getByTestId('profile-form').waitFor();
    expect(await page.getByTestId('profile-email_id').isDisabled()).toBe(true);

    // Validation: each broken field shows the spec's message, nothing is sent.
    await page.getByTestId('profile-first_name').fill('Cl4ra');
    await page.getByTestId('profile-phone').fill('');
    await page.getByTestId('profile-phone2').fill('12;34');
    await page.getByTestId('profile-secondary_emails').fill(DEMO.physician);
    await page.getByTestId('profile-date_of_birth').fill('1900-01-01');
    await page.getByTestId('profile-device_start_window').fill('25:99');
    await page.getByTestId('profile-save').click();
    expect(await fieldError(page, 'profile-first_name').innerText()).toBe('First name accepts characters only');
    expect(await fieldError(page, 'profile-phone').innerText()).toBe('Please enter primary phone number');
    expect(await fieldError(page, 'profile-phone2').innerText()).toBe('Please provide valid secondary phone number');
    expect(await fieldError(page, 'profile-secondary_emails').innerText()).toBe('Primary email and secondary email cannot be same');
    expect(await fieldError(page, 'profile-date_of_birth').innerText()).toBe('Date of birth cannot be more than 100 years ago');
    expect(await fieldError(page, 'profile-device_start_window').innerText()).toBe('Device window times must be given as hh:mm AM or PM');
    expect(await page.getByTestId('profile-first_name').getAttribute('maxlength')).toBe('30');
    expect(await page.getByTestId('profile-organisation_name').getAttribute('maxlength')).toBe('80');

    // Images: a wrong type and a too large file are refused before anything is sent.
    await page.getByTestId('profile-image-input').setInputFiles({ name: 'me.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
    expect(await page.getByTestId('profile-image-error').innerText()).toBe('Please select valid profile image format (jpg or jpeg or png format allowed)');
    await page.getByTestId('profile-image-input').setInputFiles({ name: 'big.png', mimeType: 'image/png', buffer: Buffer.alloc(5_000_001) });
    expect(await page.getByTestId('profile-image-error').innerText()).toBe('Profile image is too large, please pick a file less that 5 MB');
    const png = await makePng(page);
    await page.getByTestId('profile-image-input').setInputFiles({ name: 'clara.png', mimeType: 'image/png', buffer: png });
    expect(await page.getByTestId('profile-image-error').count()).toBe(0);
    expect(await page.getByTestId('profile-preview').getAttribute('src')).toMatch(/^blob:/);

    await page.getByTestId('profile-first_name').fill('Clara');
    await page.getByTestId('profile-phone').fill('+41 44 555 01 00');
    await page.getByTestId('profile-phone2').fill('');
    // Another account's address: the server's 401 "Repeated secondary" shows at the field, and the session goes on.
    await page.getByTestId('profile-secondary_emails').fill(DEMO.annotator);
    await page.getByTestId('profile-date_of_birth').fill('1976-05-04');
    await page.getByTestId('profile-device_start_window').fill('08:30 PM');
    await page.getByTestId('profile-save').click();
    await expect.poll(() => fieldError(page, 'profile-secondary_emails').innerText().catch(() => ''), { timeout: 30_000 }).toBe('This e-mail address belongs to another account');
    expect(await page.getByTestId('profile-save').isEnabled()).toBe(true);
    expect(page.url()).not.toMatch(/signin/);
    await page.getByTestId('profile-secondary_emails').fill('clara.second@demo.nocturne.test');
    await page.getByTestId('profile-date_of_birth').fill('1976-05-04');
    await page.getByTestId('profile-device_start_window').fill('08:30 PM');
    await page.getByTestId('profile-organisation_name').fill('Schlafzentrum Zürich');
    await page.getByTestId('profile-country').selectOption('AT');
    await page.getByTestId('profile-spec-1').check();
    await page.getByTestId('profile-rii-GSD').check();
    expect(await page.getByTestId('profile-rii-TST').isChecked()).toBe(false);
    await page.getByTestId('profile-save').click();
    // Submitted after the 1 s delay: saving first, then the popup closes.
    expect(await page.getByTestId('profile-save').innerText()).toBe('Saving…');
    await page.getByTestId('profile-form').waitFor({ state: 'detached' });

    const { data } = (await apiFetch(page, '/user/profile')) as { data: { profile: Record<string, unknown> } };
    expect(data.profile).toMatchObject({ first_name: 'Clara', primary_phone_number: '+41 44 555 01 00', secondary_emails: 'clara.second@demo.nocturne.test', date_of_birth: '1976-05-04', window_start_time: '20:30:00', organisation_name: 'Schlafzentrum Zürich', country: 'Austria', specialisation_ids: [1] });
    expect(data.profile.rii_parameters).toContain('GSD');
    expect(data.profile.rii_parameters).not.toContain('TST');
    const name = String(data.profile.profile_image);
    expect(name).toMatch(/\.png$/);
    const served = (await apiFetch(page, `/get-avatar/${name}`, true)) as { status: number; type: string; bytes: number[] };
    expect(served.status).toBe(200);
    expect(served.type).toBe('image/png');
    expect(Buffer.from(served.bytes).equals(png)).toBe(true);

    // The header shows the new image instead of the initials.
    await expect.poll(() => page.getByTestId('header-avatar-image').getAttribute('src').catch(() => null)).toMatch(/^blob:/);
    expect(await page.getByTestId('header-avatar-initials').count()).toBe(0);
    // The view shows the new image; remove it, save, and the default avatar comes back.
    await page.getByTestId('header-user').click();
    await expect.poll(() => page.getByTestId('profile-avatar').getAttribute('src')).toMatch(/^blob:/);
    await page.getByTestId('profile-edit').click();
    await page.getByTestId('profile-image-remove').click();
    await page.getByTestId('profile-save').click();
    await page.getByTestId('profile-form').waitFor({ state: 'detached' });
    const after = (await apiFetch(page, '/user/profile')) as { data: { profile: { profile_image: string } } };
    expect(after.data.profile.profile_image).toBe('profile_image.jpg');
    // … and the header its initials.
    await expect.poll(() => page.getByTestId('header-avatar-initials').innerText().catch(() => '')).toBe('CM');
    expect(((await apiFetch(page, `/get-avatar/${name}`, true)) as { status: number }).status).toBe(404);
    const fallback = (await apiFetch(page, '/get-avatar/profile_image.jpg', true)) as { status: number; type: string; bytes: number[] };
    expect([fallback.status, fallback.type, fallback.bytes.slice(0, 3)]).toEqual([200, 'image/jpeg', [0xff, 0xd8, 0xff]]);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);

  it("disables a secondary user's locked fields", async () => {
    const { context, page } = await newPage(app.browser, app.url);
    await page.goto('/');
    await signInThroughForm(page, app.url, DEMO.secondary);
    await page.getByTestId('header-user').click();
    await page.getByTestId('profile-edit').click();
    for (const id of ['profile-first_name', 'profile-last_name', 'profile-phone', 'profile-organisation_name', 'profile-country', 'profile-date_of_birth', 'profile-ternary_email', 'profile-rii-APN']) {
      expect(await page.getByTestId(id).isDisabled(), id).toBe(true);
    }
    expect(await page.getByTestId('profile-secondary_emails').isDisabled()).toBe(false);
    await page.getByTestId('profile-save').click();
    expect(await fieldError(page, 'profile-secondary_emails').innerText()).toBe('Secondary email cannot be empty');
    await page.getByTestId('profile-cancel').click();
    await page.getByTestId('profile-form').waitFor({ state: 'detached' });
    await context.close();
  }, 120_000);
});

describe('signup approval', () => {
  it('a signup with a digit in the name gets a friendly message; approved by the admin, the applicant signs in', async () => {
    const email = 'nora.applicant@clinic.test';
    const password = 'applicant-pass-1';
    const applicant = await newPage(app.browser, app.url);
    const page = applicant.page;
    await page.goto('/signup');
    await page.getByTestId('signup-first-name').fill('N0ra');
    await page.getByTestId('signup-last-name').fill('Applicant');
    await page.getByTestId('signup-email').fill(email);
    await page.getByTestId('signup-password').fill(password);
    await expect.poll(() => page.getByTestId('signup-country').locator('option').count()).toBeGreaterThan(100);
    await page.getByTestId('signup-country').selectOption('CH');
    await page.getByTestId('signup-submit').click();
    await expect.poll(() => page.getByTestId('signup-error').innerText()).toBe('First name accepts characters only');
    expect(await page.getByTestId('signup-error').innerText()).not.toContain('pattern');
    await page.getByTestId('signup-first-name').fill('Nora');
    await page.getByTestId('signup-submit').click();
    await page.getByTestId('signup-success').waitFor();

    // Waiting for approval: sign-in says so.
    await page.goto('/app/signin');
    await page.getByTestId('signin-email').fill(email);
    await page.getByTestId('signin-password').fill(password);
    await page.getByTestId('signin-submit').click();
    await expect.poll(() => page.getByTestId('signin-error').innerText()).toContain('waiting for approval');

    const admin = await newPage(app.browser, app.url);
    await admin.page.goto('/');
    await signInThroughForm(admin.page, app.url, DEMO.admin);
    await admin.page.getByTestId('nav-admin-signups').click();
    const row = admin.page.locator(`[data-testid="signup-row"][data-email="${email}"]`);
    await row.getByTestId('signup-approve').click();
    await admin.page.getByTestId('signup-reason').fill('Welcome aboard');
    await admin.page.getByTestId('signup-confirm').click();
    await expect.poll(() => row.getByTestId('signup-decided').innerText()).toContain(`Approved by ${DEMO.admin}`);
    const mail = await (await fetch(`${app.url}/api/v1/dev/outbox?email=${encodeURIComponent(email)}`)).json();
    expect(JSON.stringify(mail)).toContain('Your Nocturne account is active');

    await page.goto('/app/signin');
    await signInThroughForm(page, app.url, email, password);
    await expect.poll(() => page.getByTestId('header-user').innerText()).toContain('Nora Applicant');
    expect(applicant.errors).toEqual([]);
    expect(admin.errors).toEqual([]);
    await applicant.context.close();
    await admin.context.close();
  }, 180_000);

  it('forgot password offers "Resend code", which mails a new one', async () => {
    const { context, page } = await newPage(app.browser, app.url);
    await page.goto('/forgot_password');
    await page.getByTestId('forgot-email').fill(DEMO.annotator);
    await page.getByTestId('forgot-submit').click();
    await page.getByTestId('forgot-otp').waitFor();
    const first = await outboxCode(app.url, DEMO.annotator);
    await page.getByTestId('forgot-resend').click();
    await page.getByTestId('forgot-resent').waitFor();
    expect(await page.getByTestId('forgot-resend').isDisabled()).toBe(true);
    await expect.poll(() => outboxCode(app.url, DEMO.annotator)).not.toBe(first);
    await context.close();
  }, 120_000);
});
