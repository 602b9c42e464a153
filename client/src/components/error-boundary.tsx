import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Button, Center, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { isChunkLoadError } from '../lib/chunk-error.ts';

export const BOUNDARY_STRINGS = {
  chunkTitle: 'This screen could not be loaded',
  chunkBody: 'A new version of License Manager is available or the connection dropped. Reload the page to continue.',
  crashTitle: 'Something went wrong',
  crashBody: 'This screen hit an unexpected error. You can try again, or go back to the dashboard.',
  tryAgain: 'Try again',
  reload: 'Reload page',
  dashboard: 'Go to dashboard',
};

/**
 * What a boundary shows instead of a blank page. A failed screen download cannot be retried in place (React
 * keeps the rejected import), so it offers a full reload, which also picks up a redeployed version.
 */
export function ErrorFallback({ error, onReset, fullPage }: { error: unknown; onReset: () => void; fullPage?: boolean }) {
  const chunk = isChunkLoadError(error);
  const reload = () => window.location.reload();
  const panel = (
    <Paper withBorder radius="md" p="lg" maw={560} w="100%" role="alert" data-testid="error-fallback">
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" color={chunk ? 'blue' : 'red'} size="lg" radius="xl" aria-hidden>
            {chunk ? <IconRefresh size={20} /> : <IconAlertTriangle size={20} />}
          </ThemeIcon>
          <Stack gap={4}>
            <Title order={2} size="h4">
              {chunk ? BOUNDARY_STRINGS.chunkTitle : BOUNDARY_STRINGS.crashTitle}
            </Title>
            <Text size="sm" c="dimmed">
              {chunk ? BOUNDARY_STRINGS.chunkBody : BOUNDARY_STRINGS.crashBody}
            </Text>
          </Stack>
        </Group>
        <Group gap="sm">
          {chunk ? (
            <Button leftSection={<IconRefresh size={16} />} onClick={reload}>
              {BOUNDARY_STRINGS.reload}
            </Button>
          ) : (
            <Button onClick={onReset}>{BOUNDARY_STRINGS.tryAgain}</Button>
          )}
          {/* A plain link: it works even when the router itself is what failed. */}
          <Button component="a" href="/dashboard" variant="default">
            {BOUNDARY_STRINGS.dashboard}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
  return fullPage ? (
    <Center mih="100vh" p="md">
      {panel}
    </Center>
  ) : (
    <Center py="xl">{panel}</Center>
  );
}

type Props = {
  children: ReactNode;
  /** When this value changes (e.g. the location), a caught error is cleared and the children render again. */
  resetKey?: unknown;
  fullPage?: boolean;
};
type State = { error: unknown; failed: boolean; resetKey: unknown };

/** Catches a render error or a failed screen download below it (docs/architecture.md "Client"). */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error, failed: true };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { resetKey: props.resetKey, error: null, failed: false };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('Screen failed to render', error, info.componentStack);
  }

  reset = () => this.setState({ error: null, failed: false });

  override render() {
    if (this.state.failed) return <ErrorFallback error={this.state.error} onReset={this.reset} fullPage={this.props.fullPage} />;
    return this.props.children;
  }
}
