import { describe, expect, it } from 'vitest';
import { forgotReducer, initialForgot, stepNumber } from '../../src/features/auth/forgotMachine';
import { initialSignIn, signInReducer } from '../../src/features/auth/signInMachine';
import { cleanOtp, isEmail, isOtp, isStrongEnough } from '../../src/features/auth/validate';

describe('sign-in reducer', () => {
  it('goes from password to OTP and keeps the e-mail', () => {
    let s = signInReducer(initialSignIn, { type: 'submit' });
    expect(s.status).toBe('pending');
    s = signInReducer(s, { type: 'passwordAccepted', email: 'a@b.test' });
    expect(s).toMatchObject({ step: 'otp', status: 'idle', email: 'a@b.test', error: null });
  });

  it('stores a failure and clears it on the next attempt', () => {
    const err = new Error('no');
    let s = signInReducer(signInReducer(initialSignIn, { type: 'submit' }), { type: 'failed', error: err });
    expect(s).toMatchObject({ status: 'failed', error: err, step: 'password' });
    s = signInReducer(s, { type: 'submit' });
    expect(s).toMatchObject({ status: 'pending', error: null });
  });

  it('restarts from the password step', () => {
    const s = signInReducer({ ...initialSignIn, step: 'otp', email: 'x@y.z' }, { type: 'restart' });
    expect(s).toEqual(initialSignIn);
  });
});

describe('forgot-password reducer', () => {
  it('walks e-mail → OTP → password → done and clears everything at the end', () => {
    let s = forgotReducer(initialForgot, { type: 'request' });
    expect(s.pending).toBe(true);
    s = forgotReducer(s, { type: 'emailVerified', email: 'a@b.test' });
    expect([s.step, stepNumber(s.step)]).toEqual(['otp', 2]);
    s = forgotReducer(forgotReducer(s, { type: 'request' }), { type: 'otpVerified', resetToken: 'tok' });
    expect(s).toMatchObject({ step: 'password', resetToken: 'tok', email: 'a@b.test', pending: false });
    s = forgotReducer(s, { type: 'passwordReset' });
    expect(s).toEqual({ ...initialForgot, step: 'done' });
  });

  it('stays on the failing step with the error', () => {
    const s = forgotReducer({ ...initialForgot, step: 'otp', pending: true }, { type: 'failed', error: 'bad' });
    expect(s).toMatchObject({ step: 'otp', pending: false, error: 'bad' });
  });
});

describe('validation helpers', () => {
  it('checks e-mail, OTP and password length', () => {
    expect(isEmail(' physician@demo.nocturne.test ')).toBe(true);
    expect(isEmail('physician@')).toBe(false);
    expect(isOtp('123456')).toBe(true);
    expect(isOtp('12345')).toBe(false);
    expect(isOtp('12345a')).toBe(false);
    expect(isStrongEnough('1234567')).toBe(false);
    expect(isStrongEnough('12345678')).toBe(true);
  });

  it('cleans a pasted code to six digits', () => {
    expect(cleanOtp('123 456')).toBe('123456');
    expect(cleanOtp('12-34-56-78')).toBe('123456');
  });
});
