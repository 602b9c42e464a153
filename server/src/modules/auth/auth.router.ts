import { changePasswordInput, loginInput, loginOutput, successSchema, userSchema } from '@lm/shared';
import { z } from 'zod';
import { authedProcedure, publicProcedure, router } from '../../core/trpc.ts';
import * as auth from './auth.service.ts';

const tags = ['auth'];

export const authRouter = router({
  login: publicProcedure
    .meta({
      openapi: { method: 'POST', path: '/auth/login', tags, summary: 'Sign in; returns a bearer token and the user' },
      errors: ['UNAUTHORIZED', 'TOO_MANY_REQUESTS', 'SERVICE_UNAVAILABLE'],
    })
    .input(loginInput)
    .output(loginOutput)
    .mutation(({ ctx, input }) => auth.login(ctx, input)),

  logout: authedProcedure
    .meta({ openapi: { method: 'POST', path: '/auth/logout', tags, summary: 'Revoke the current token', protect: true } })
    .input(z.object({}).optional())
    .output(successSchema)
    .mutation(({ ctx }) => auth.logout(ctx)),

  me: authedProcedure
    .meta({ openapi: { method: 'GET', path: '/auth/me', tags, summary: 'The signed-in user', protect: true } })
    .input(z.object({}).optional())
    .output(userSchema)
    .query(({ ctx }) => auth.me(ctx)),

  changePassword: authedProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/auth/change-password',
        tags,
        summary: "Change the signed-in user's password; signs out other sessions",
        protect: true,
      },
    })
    .input(changePasswordInput)
    .output(successSchema)
    .mutation(({ ctx, input }) => auth.changePassword(ctx, input)),
});
