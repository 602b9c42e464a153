import { z } from 'zod';
import {
  idParam,
  createLicenseInput,
  licenseHolderSchema,
  licenseListQuery,
  licensePageOutput,
  licenseSchema,
  renewLicenseInput,
  successSchema,
  updateLicenseInput,
} from '@lm/shared';
import { roleProcedure, router } from '../../core/trpc.ts';
import * as licenses from './licenses.service.ts';

const tags = ['licenses'];
/** Read: Admin all, Broker own + brokerage, Agent own (DECISIONS.md). School: 403. */
const readProcedure = roleProcedure('Admin', 'Broker', 'Agent');
/** Write: Admin and Broker (within scope); an Agent's licenses are read-only. */
const writeProcedure = roleProcedure('Admin', 'Broker');
const licenseIdInput = z.object({ id: idParam });

// Static paths come before /licenses/{id}: the REST adapter takes the first path that matches.
export const licensesRouter = router({
  list: readProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/licenses',
        tags,
        summary: 'Licenses in your scope, with holder names (array; filters, sort, optional page/limit)',
        protect: true,
      },
    })
    .input(licenseListQuery.optional())
    .output(z.array(licenseSchema))
    .query(({ ctx, input }) => licenses.listLicenses(ctx, input)),

  page: readProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/licenses/page',
        tags,
        summary: 'One page of licenses with {licenses, pagination} (same filters as GET /licenses)',
        protect: true,
      },
    })
    .input(licenseListQuery.optional())
    .output(licensePageOutput)
    .query(({ ctx, input }) => licenses.pageLicenses(ctx, input)),

  holders: readProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/licenses/holders',
        tags,
        summary: 'Users who may hold a license (Agents and Brokers) in your scope',
        protect: true,
      },
    })
    .input(z.object({}).optional())
    .output(z.array(licenseHolderSchema))
    .query(({ ctx }) => licenses.listHolders(ctx)),

  // tRPC only: the form's starting values (settings are Admin-only, the form is not).
  defaults: readProcedure.query(({ ctx }) => licenses.licenseDefaults(ctx)),

  create: writeProcedure
    .meta({
      openapi: { method: 'POST', path: '/licenses', tags, summary: 'Create a license (defaults Sales, Active, CE 0)', protect: true },
      errors: ['NOT_FOUND', 'CONFLICT'],
    })
    .input(createLicenseInput)
    .output(licenseSchema)
    .mutation(({ ctx, input }) => licenses.createLicense(ctx, input)),

  update: writeProcedure
    .meta({
      openapi: { method: 'PUT', path: '/licenses/{id}', tags, summary: 'Update a license (any subset of fields)', protect: true },
      errors: ['CONFLICT'],
    })
    .input(updateLicenseInput)
    .output(licenseSchema)
    .mutation(({ ctx, input }) => licenses.updateLicense(ctx, input)),

  delete: writeProcedure
    .meta({ openapi: { method: 'DELETE', path: '/licenses/{id}', tags, summary: 'Delete a license', protect: true } })
    .input(licenseIdInput)
    .output(successSchema)
    .mutation(({ ctx, input }) => licenses.deleteLicense(ctx, input.id)),

  renew: writeProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/licenses/{id}/renew',
        tags,
        summary: 'Renew: body {expiration_date, status}; without a body, two years after the current expiration and Active',
        protect: true,
      },
    })
    .input(renewLicenseInput)
    .output(licenseSchema)
    .mutation(({ ctx, input }) => licenses.renewLicense(ctx, input)),
});
