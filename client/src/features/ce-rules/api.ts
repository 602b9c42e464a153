/** The State CE Rules screen's calls. A rule decides what licenses' cycles require, so licenses refresh too. */
import { trpc } from '../../lib/trpc.ts';

export function useCeRules() {
  return trpc.ceRules.list.useQuery();
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
  return trpc.ceRules.create.useMutation({ onSuccess: refresh });
}

export function useUpdateCeRule() {
  const refresh = useRefresh();
  return trpc.ceRules.update.useMutation({ onSuccess: refresh });
}

export function useDeleteCeRule() {
  const refresh = useRefresh();
  return trpc.ceRules.delete.useMutation({ onSuccess: refresh });
}
