import {
  bulkUsersInput,
  bulkUsersOutput,
  emailLinkInput,
  emailLinkOutput,
  profileUpdateInput,
  sendResetLinkInput,
  sendResetLinkOutput,
  successSchema,
  userCreateInput,
  userIdInput,
  userSchema,
  usersListOutput,
  usersListQuery,
  userUpdateInput,
} from '@lm/shared';
import { authedProcedure, policyProcedure, router } from '../../core/trpc.ts';
import * as users from './users.service.ts';
import * as emailChange from './email-change.service.ts';

const tags = ['users'];

export const usersRouter = router({
  list: policyProcedure('users.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/users',
        tags,
        summary: 'List users (Broker: own brokerage) with filters, search, sort and pagination',
        protect: true,
      },
    })
    .input(usersListQuery)
    .output(usersListOutput)
    .query(({ ctx, input }) => users.listUsers(ctx, input)),

  get: policyProcedure('users.read')
    .meta({ openapi: { method: 'GET', path: '/users/{id}', tags, summary: 'One user', protect: true } })
    .input(userIdInput)
    .output(userSchema)
    .query(({ ctx, input }) => users.getUser(ctx, input.id)),

  create: policyProcedure('users.create')
    .meta({
      openapi: { method: 'POST', path: '/users', tags, summary: 'Create a user (Broker: Agents of its brokerage only)', protect: true },
      errors: ['NOT_FOUND', 'CONFLICT'],
    })
    .input(userCreateInput)
    .output(userSchema)
    .mutation(({ ctx, input }) => users.createUser(ctx, input)),

  update: policyProcedure('users.update')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/users/{id}',
        tags,
        summary: 'Update a user; a blank password keeps the current one; deactivation signs the user out',
        protect: true,
      },
      errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    })
    .input(userUpdateInput)
    .output(userSchema)
    .mutation(({ ctx, input }) => users.updateUser(ctx, input)),

  delete: policyProcedure('users.delete')
    .meta({
      openapi: {
        method: 'DELETE',
        path: '/users/{id}',
        tags,
        summary: 'Delete a user: deactivated, hidden from lists and signed out; history stays',
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(userIdInput)
    .output(successSchema)
    .mutation(({ ctx, input }) => users.deleteUser(ctx, input.id)),

  bulk: policyProcedure('users.bulk')
    .meta({
      openapi: {
        method: 'POST',
        path: '/users/bulk',
        tags,
        summary: 'Activate, deactivate, change role or brokerage of, or delete several users in one transaction',
        protect: true,
      },
      errors: ['NOT_FOUND', 'CONFLICT'],
    })
    .input(bulkUsersInput)
    .output(bulkUsersOutput)
    .mutation(({ ctx, input }) => users.bulkUsers(ctx, input)),

  sendResetLink: policyProcedure('users.sendResetLink')
    .meta({
      openapi: {
        method: 'POST',
        path: '/users/{id}/send-reset-link',
        tags,
        summary: 'E-mail the user a single-use link (24 hours) to choose a new password (Broker: Agents of its brokerage)',
        protect: true,
      },
    })
    .input(sendResetLinkInput)
    .output(sendResetLinkOutput)
    .mutation(({ ctx, input }) => users.sendResetLink(ctx, input.id)),

  updateProfile: authedProcedure('profile.update')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/users/me/profile',
        tags,
        summary:
          "Update the signed-in user's name, phone and address; a new email needs currentPassword and takes effect from the link e-mailed to it (the answer is the same whether or not the address is free)",
        protect: true,
      },
      errors: ['TOO_MANY_REQUESTS'],
    })
    .input(profileUpdateInput)
    .output(userSchema)
    .mutation(({ ctx, input }) => users.updateProfile(ctx, input)),

  confirmEmailChange: policyProcedure('profile.confirmEmail')
    .meta({
      openapi: {
        method: 'POST',
        path: '/users/email-change/confirm',
        tags,
        summary: 'Make a sign-in email change with the single-use link sent to the new address; the old address gets an undo link',
      },
      errors: ['CONFLICT'],
    })
    .input(emailLinkInput)
    .output(emailLinkOutput)
    .mutation(({ ctx, input }) => emailChange.confirmEmailChange(ctx, input)),

  undoEmailChange: policyProcedure('profile.undoEmail')
    .meta({
      openapi: {
        method: 'POST',
        path: '/users/email-change/undo',
        tags,
        summary:
          'Undo a sign-in email change with the single-use link sent to the old address: puts it back, signs out everywhere, e-mails a password link',
      },
    })
    .input(emailLinkInput)
    .output(emailLinkOutput)
    .mutation(({ ctx, input }) => emailChange.undoEmailChange(ctx, input)),
});
