/**
 * The State CE Rules screen's calls, with their toasts. A rule decides what licenses' cycles require, so
 * licenses and the dashboard refresh too.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { CE_STRINGS, type CeRulePageQuery } from '@lm/shared';
import { trpc } from '../../lib/trpc.ts';
import { notify } from '../../lib/notify.ts';

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
  return trpc.ceRules.create.useMutation({
    onSuccess: () => {
      notify.success(CE_STRINGS.ruleCreated);
      refresh();
    },
    onError: (err) => notify.failure(err, CE_STRINGS.saveRuleFailed),
  });
}

export function useUpdateCeRule() {
  const refresh = useRefresh();
  return trpc.ceRules.update.useMutation({
    onSuccess: () => {
      notify.success(CE_STRINGS.ruleUpdated);
      refresh();
    },
    onError: (err) => notify.failure(err, CE_STRINGS.saveRuleFailed),
  });
}

export function useDeleteCeRule() {
  const refresh = useRefresh();
  return trpc.ceRules.delete.useMutation({
    onSuccess: () => {
      notify.success(CE_STRINGS.ruleDeleted);
      refresh();
    },
    onError: (err) => notify.failure(err, CE_STRINGS.deleteRuleFailed),
  });
}
