import { OTP_LENGTH } from '../../config';
import { Field } from '../../ui/Field';
import { cleanOtp } from './validate';

interface OtpInputProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  testId: string;
  error?: string | null;
  disabled?: boolean;
}

/** One text field for the whole code: numeric keypad on phones, autofill from the mail app. */
export function OtpInput({ label, value, onChange, testId, error, disabled }: OtpInputProps) {
  return (
    <Field
      label={label}
      type="text"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern={`\\d{${OTP_LENGTH}}`}
      maxLength={OTP_LENGTH}
      className="otp-input"
      value={value}
      onChange={(e) => onChange(cleanOtp(e.target.value))}
      data-testid={testId}
      error={error}
      disabled={disabled}
      autoFocus
      required
    />
  );
}
