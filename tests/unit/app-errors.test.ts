import { describe, expect, it } from 'vitest';
import { actionForError, ApiError, toApiError } from '../../src/api/errors';

describe('actionForError', () => {
  const off = { onSignInPage: false };

  it("clears the session on 'Invalid credentials'", () => {
    expect(actionForError({ status: 401, code: 'invalid_credentials', message: 'Invalid credentials' }, off)).toBe('clear-session');
    // The message alone is enough, whatever the status or code.
    expect(actionForError({ status: 403, code: 'x', message: 'Invalid credentials' }, off)).toBe('clear-session');
  });

  it('passes other 401s and errors through to the caller', () => {
    expect(actionForError({ status: 401, code: 'invalid_otp', message: 'Wrong code' }, off)).toBe('pass');
    expect(actionForError({ status: 500, code: 'boom', message: 'Server error' }, off)).toBe('pass');
    expect(actionForError({ status: 429, code: 'rate_limited', message: 'Slow down' }, off)).toBe('pass');
  });

  it('leaves everything to the form on the sign-in page', () => {
    expect(actionForError({ status: 401, code: 'invalid_credentials', message: 'Invalid credentials' }, { onSignInPage: true })).toBe('pass');
  });
});

describe('toApiError', () => {
  it('keeps the server code and message', () => {
    const e = toApiError(401, { code: 'invalid_login', message: 'Invalid email or password!' }, 'Unauthorized');
    expect(e).toBeInstanceOf(ApiError);
    expect([e.status, e.code, e.message]).toEqual([401, 'invalid_login', 'Invalid email or password!']);
  });

  it('falls back on a status code and text when the body says nothing', () => {
    const e = toApiError(502, null, 'Bad Gateway');
    expect([e.status, e.code, e.message]).toEqual([502, 'http_502', 'Bad Gateway']);
  });
});
