import { OTP_LENGTH, PASSWORD_MIN_LENGTH } from '../../config';

/** Loose on purpose: the server has the last word; this only catches typos early. */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const isEmail = (value: string): boolean => EMAIL.test(value.trim());

export const isOtp = (value: string): boolean => new RegExp(`^\\d{${OTP_LENGTH}}$`).test(value);

export const isStrongEnough = (password: string): boolean => password.length >= PASSWORD_MIN_LENGTH;

/** Keeps digits only and at most OTP_LENGTH of them, so pasting "123 456" works. */
export const cleanOtp = (value: string): string => value.replace(/\D/g, '').slice(0, OTP_LENGTH);
