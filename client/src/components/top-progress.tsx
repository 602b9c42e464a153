import { useEffect, useState } from 'react';
import { useIsMutating } from '@tanstack/react-query';
import classes from './top-progress.module.css';

/** The thin bar at the top of the window (docs/architecture.md "Client"). */
export function TopProgress() {
  return <div className={classes.bar} role="progressbar" aria-label="Loading" data-testid="top-progress" />;
}

/** Shows the bar only once something has been pending for `delay` ms, so quick work does not flicker. */
export function DelayedProgress({ active, delay = 300 }: { active: boolean; delay?: number }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (!active) {
      setShown(false);
      return;
    }
    const t = setTimeout(() => setShown(true), delay);
    return () => clearTimeout(t);
  }, [active, delay]);
  return shown ? <TopProgress /> : null;
}

/** The bar while any mutation (save, delete, restore...) has been running for more than 300 ms. */
export function MutationProgress() {
  return <DelayedProgress active={useIsMutating() > 0} />;
}
