import { z } from 'zod';
import {
  ceAdjustInput,
  idParam,
  renewalPreviewSchema,
  transcriptSchema,
  createLicenseInput,
  licenseHolderSchema,
  pickerQuery,
  complianceSummarySchema,
  licenseDefaultsInput,
  licenseDefaultsSchema,
  licenseListQuery,
  licensePageOutput,
  licenseSchema,
  renewLicenseInput,
  successSchema,
  updateLicenseInput,
} from '@lm/shared';
import { policyProcedure, router } from '../../core/trpc.ts';
import * as licenses from './licenses.service.ts';

const tags = ['licenses'];
const licenseIdInput = z.object({ id: idParam });

export const licensesRouter = router({
  list: policyProcedure('licenses.read')
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

  page: policyProcedure('licenses.read')
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

  complianceSummary: policyProcedure('licenses.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/licenses/compliance-summary',
        tags,
        summary: 'How many licenses are at risk, expired, on track and complete (same filters as GET /licenses but compliance)',
        protect: true,
      },
    })
    .input(licenseListQuery.optional())
    .output(complianceSummarySchema)
    .query(({ ctx, input }) => licenses.complianceSummary(ctx, input)),

  get: policyProcedure('licenses.read')
    .meta({
      openapi: { method: 'GET', path: '/licenses/{id}', tags, summary: 'One license with its holder and compliance', protect: true },
    })
    .input(licenseIdInput)
    .output(licenseSchema)
    .query(({ ctx, input }) => licenses.getVisibleLicense(ctx, input.id)),

  holders: policyProcedure('licenses.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/licenses/holders',
        tags,
        summary:
          'The holder picker: users who may hold a license (Agents and Brokers) in your scope whose name contains `search`, the first `limit` (20, at most 50) by name; `ids` only those',
        protect: true,
      },
    })
    .input(pickerQuery.optional())
    .output(z.array(licenseHolderSchema))
    .query(({ ctx, input }) => licenses.listHolders(ctx, input)),

  defaults: policyProcedure('licenses.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/licenses/defaults',
        tags,
        summary: "A new license's CE hours for a state and type: the state rule's hours and topics, else the office default",
        protect: true,
      },
    })
    .input(licenseDefaultsInput)
    .output(licenseDefaultsSchema)
    .query(({ ctx, input }) => licenses.licenseDefaults(ctx, input)),

  create: policyProcedure('licenses.create')
    .meta({
      openapi: { method: 'POST', path: '/licenses', tags, summary: 'Create a license (defaults Sales, Active, CE 0)', protect: true },
      errors: ['NOT_FOUND', 'CONFLICT'],
    })
    .input(createLicenseInput)
    .output(licenseSchema)
    .mutation(({ ctx, input }) => licenses.createLicense(ctx, input)),

  update: policyProcedure('licenses.update')
    .meta({
      openapi: { method: 'PUT', path: '/licenses/{id}', tags, summary: 'Update a license (any subset of fields)', protect: true },
      errors: ['CONFLICT', 'PRECONDITION_FAILED'],
    })
    .input(updateLicenseInput)
    .output(licenseSchema)
    .mutation(({ ctx, input }) => licenses.updateLicense(ctx, input)),

  delete: policyProcedure('licenses.delete')
    .meta({ openapi: { method: 'DELETE', path: '/licenses/{id}', tags, summary: 'Delete a license', protect: true } })
    .input(licenseIdInput)
    .output(successSchema)
    .mutation(({ ctx, input }) => licenses.deleteLicense(ctx, input.id)),

  renew: policyProcedure('licenses.renew')
    .meta({
      openapi: {
        method: 'POST',
        path: '/licenses/{id}/renew',
        tags,
        summary:
          "Renew: closes the CE cycle and opens the next. Body {expiration_date, status, allow_incomplete}; without a body, one cycle (the state rule's years, else two) after the current expiration and Active. CE outstanding: 409 unless allow_incomplete",
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(renewLicenseInput)
    .output(licenseSchema)
    .mutation(({ ctx, input }) => licenses.renewLicense(ctx, input)),

  renewalPreview: policyProcedure('licenses.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/licenses/{id}/renewal-preview',
        tags,
        summary: "What Renew would do: new expiration date and whether the cycle's CE is complete",
        protect: true,
      },
    })
    .input(licenseIdInput)
    .output(renewalPreviewSchema)
    .query(({ ctx, input }) => licenses.renewalPreview(ctx, input.id)),

  transcript: policyProcedure('licenses.read')
    .meta({
      openapi: {
        method: 'GET',
        path: '/licenses/{id}/transcript',
        tags,
        summary: 'CE transcript: the current cycle and every closed one, with completions, adjustments and topics',
        protect: true,
      },
    })
    .input(licenseIdInput)
    .output(transcriptSchema)
    .query(({ ctx, input }) => licenses.getTranscript(ctx, input.id)),

  adjust: policyProcedure('licenses.adjust')
    .meta({
      openapi: {
        method: 'POST',
        path: '/licenses/{id}/adjustments',
        tags,
        summary: "Adjust the current cycle's CE hours: body {hours (signed, not 0), reason}; 409 below 0",
        protect: true,
      },
      errors: ['CONFLICT'],
    })
    .input(ceAdjustInput)
    .output(licenseSchema)
    .mutation(({ ctx, input }) => licenses.adjustLicense(ctx, input)),
});
