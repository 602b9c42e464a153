/** The CE rule form maps its fields to the shared schema's input (the one form path, lib/schema-form.ts). */
import { describe, expect, it } from 'vitest';
import { CE_MESSAGES, ceRuleCreateInput } from '@lm/shared';
import { schemaErrors } from '../../lib/schema-form.ts';
import { ruleFormInput } from './ce-rule-form-modal.tsx';

describe('CE rule form', () => {
  const rule = {
    state: 'nv',
    license_type: 'Sales' as const,
    hours_required: 24 as number | string,
    cycle_years: 4 as number | string,
    allow_repeat_credit: false,
    notes: ' ',
  };

  it('says a topic row needs a topic, and that the topics must fit the hours', () => {
    expect(schemaErrors(ceRuleCreateInput, ruleFormInput({ ...rule, topics: [{ key: 'a', topic: null, hours: 2 }] }))).toEqual({
      'topics.0.topic': CE_MESSAGES.topicRequired,
    });
    expect(schemaErrors(ceRuleCreateInput, ruleFormInput({ ...rule, topics: [{ key: 'a', topic: 'Ethics', hours: 30 }] }))).toEqual({
      topics: CE_MESSAGES.topicsOverTotal,
    });
    expect(schemaErrors(ceRuleCreateInput, ruleFormInput({ ...rule, hours_required: '', topics: [] }))).toEqual({
      hours_required: CE_MESSAGES.hoursRequiredNumber,
    });
  });

  it('sends the state upper-cased and blank notes as null', () => {
    const out = ceRuleCreateInput.parse(ruleFormInput({ ...rule, topics: [{ key: 'a', topic: 'Ethics', hours: 3 }] }));
    expect(out).toMatchObject({ state: 'NV', notes: null, topics: [{ topic: 'Ethics', hours: 3 }] });
  });
});
