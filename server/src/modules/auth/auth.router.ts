import {
  changePasswordInput,
  changePasswordOutput,
  forgotPasswordInput,
  consumeSignInLinkInput,
  loginChallengeInput,
  loginChallengeOutput,
  loginInput,
  loginOutput,
  signInLinkInput,
  resetPasswordInput,
  successSchema,
  userSchema,
} from '@lm/shared';
import { z } from 'zod';
import { authedProcedure, policyProcedure, router } from '../../core/trpc.ts';
import * as auth from './auth.service.ts';
import * as reset from './password-reset.service.ts';
import * as signInLink from './sign-in-link.service.ts';
import { createLoginChallenge } from './login-proof.ts';

const tags = ['auth'];

export const authRouter = router({
  login: policyProcedure('auth.login')
    .meta({
      openapi: { method: 'POST', path: '/auth/login', tags, summary: 'Sign in; returns a bearer token and the user' },
      errors: ['UNAUTHORIZED', 'TOO_MANY_REQUESTS', 'SERVICE_UNAVAILABLE'],
    })
    .input(loginInput)
    .output(loginOutput)
    .mutation(({ ctx, input }) => auth.login(ctx, input)),

  // docs/security.md "Sign-in": a new device's ways in while strangers have locked the account.
  loginChallenge: policyProcedure('auth.loginChallenge')
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/login-challenge',
        tags,
        summary: 'A proof-of-work challenge (altcha) whose solution lets a new device sign in while the account is locked',
      },
    })
    .input(loginChallengeInput)
    .output(loginChallengeOutput)
    .mutation(async ({ ctx, input }) => ({ challenge: await createLoginChallenge(ctx.db, ctx.config, input.email) })),

  signInLink: policyProcedure('auth.signInLink')
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/sign-in-link',
        tags,
        summary: 'E-mail a one-time sign-in link (15 minutes); always the same answer',
      },
      errors: ['TOO_MANY_REQUESTS'],
    })
    .input(signInLinkInput)
    .output(successSchema)
    .mutation(({ ctx, input }) => signInLink.requestSignInLink(ctx, input)),

  consumeSignInLink: policyProcedure('auth.consumeSignInLink')
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/sign-in-link/consume',
        tags,
        summary: "Sign in with a sign-in link's token (once); returns a bearer token and the user",
      },
      errors: ['SERVICE_UNAVAILABLE'],
    })
    .input(consumeSignInLinkInput)
    .output(loginOutput)
    .mutation(({ ctx, input }) => signInLink.consumeSignInLink(ctx, input)),

  logout: authedProcedure('auth.logout')
    .meta({ openapi: { method: 'POST', path: '/auth/logout', tags, summary: 'Revoke the current token', protect: true } })
    .input(z.object({}).optional())
    .output(successSchema)
    .mutation(({ ctx }) => auth.logout(ctx)),

  me: authedProcedure('auth.me')
    .meta({ openapi: { method: 'GET', path: '/auth/me', tags, summary: 'The signed-in user', protect: true } })
    .input(z.object({}).optional())
    .output(userSchema)
    .query(({ ctx }) => auth.me(ctx)),

  changePassword: authedProcedure('auth.changePassword')
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/change-password',
        tags,
        summary:
          "Change the signed-in user's password (current password counted per user: 429 once locked); signs out other sessions and expires open password links",
        protect: true,
      },
      errors: ['TOO_MANY_REQUESTS'],
    })
    .input(changePasswordInput)
    .output(changePasswordOutput)
    .mutation(({ ctx, input }) => auth.changePassword(ctx, input)),

  forgotPassword: policyProcedure('auth.forgotPassword')
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/forgot-password',
        tags,
        summary: 'E-mail a single-use link (60 minutes) to choose a new password; always the same answer',
      },
      errors: ['TOO_MANY_REQUESTS'],
    })
    .input(forgotPasswordInput)
    .output(successSchema)
    .mutation(({ ctx, input }) => reset.forgotPassword(ctx, input)),

  resetPassword: policyProcedure('auth.resetPassword')
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/reset-password',
        tags,
        summary: 'Set a new password with the token of a password link; signs the user out everywhere',
      },
    })
    .input(resetPasswordInput)
    .output(successSchema)
    .mutation(({ ctx, input }) => reset.resetPassword(ctx, input)),
});
