/** Strings of the sign-in, forgot-password and reset-password screens; no zod here, so the sign-in page loads without it (docs/performance.md "First page"). */
export const PASSWORD_RESET_STRINGS = {
  forgotLink: 'Forgot password?',
  forgotTitle: 'Forgot your password?',
  forgotSubtitle: 'Enter the email address of your account and we will send you a link to choose a new password.',
  forgotSubmit: 'Send reset link',
  forgotBusy: 'Sending...',
  /** The same answer whether or not the address has an account. */
  forgotDone: 'If an account exists for that address, we have sent it a link to reset the password. The link works once, for 60 minutes.',
  backToLogin: 'Back to sign in',
  resetTitle: 'Choose a new password',
  resetSubtitle: 'Your new password signs you out everywhere else.',
  resetSubmit: 'Set new password',
  resetDone: 'Your password has been changed. Please sign in.',
  resetFailed: 'Could not reset the password',
  missingToken: 'This link is incomplete. Ask for a new one.',
  invalidToken: 'This password link is invalid, expired or already used. Ask for a new one.',
  mismatch: 'Passwords do not match',
  sendLink: 'Send password reset link',
  sendLinkConfirm: 'E-mail this user a link to choose a new password? Their current password keeps working until they use it.',
  linkSent: 'Password reset link sent',
  linkFailed: 'Failed to send the password reset link',
} as const;
