/**
 * The State CE Rules screen's calls, with their toasts. A rule decides what licenses' cycles require, so
 * licenses and the dashboard refresh too.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { CE_STRINGS, type CeRulePageQuery } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { mutationOutcome } from '../../lib/notify.ts';

export function useCeRulesPage(input: CeRulePageQuery) {
  return trpc.ceRules.page.useQuery(input, { placeholderData: keepPreviousData });
}

function useRefresh() {
  const utils = trpc.useUtils();
  return () => {
    void utils.ceRules.invalidate();
    void utils.licenses.invalidate();
    void utils.dashboard.invalidate();
  };
}

export function useCreateCeRule() {
  const refresh = useRefresh();
  return trpc.ceRules.create.useMutation(mutationOutcome(CE_STRINGS.ruleCreated, CE_STRINGS.saveRuleFailed, refresh));
}

export function useUpdateCeRule() {
  const refresh = useRefresh();
  return trpc.ceRules.update.useMutation(mutationOutcome(CE_STRINGS.ruleUpdated, CE_STRINGS.saveRuleFailed, refresh));
}

export function useDeleteCeRule() {
  const refresh = useRefresh();
  return trpc.ceRules.delete.useMutation(mutationOutcome(CE_STRINGS.ruleDeleted, CE_STRINGS.deleteRuleFailed, refresh));
}
