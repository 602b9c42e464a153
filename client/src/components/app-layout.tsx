import { Suspense, useEffect, type MouseEvent, type ReactNode } from 'react';
import {
  ActionIcon,
  Anchor,
  AppShell,
  Avatar,
  Badge,
  Burger,
  Center,
  Group,
  Loader,
  Menu,
  NavLink,
  ScrollArea,
  Stack,
  Text,
  Tooltip,
  UnstyledButton,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBell, IconChevronDown, IconLogout, IconMoon, IconSun, IconUser } from '@tabler/icons-react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { useAuth } from '../lib/auth.tsx';
import { NAV, navFor } from '../app/nav.ts';
import { useDocumentTitle, usePublicSettings } from '../lib/public-settings.ts';
import { installRowFocusReturn } from '../lib/row-focus.ts';

/** The skip link moves the focus to the page itself (docs/decisions.md "Accessibility"). */
function skipToMain(e: MouseEvent<HTMLAnchorElement>) {
  e.preventDefault();
  document.getElementById('main-content')?.focus();
}

/**
 * After sign-in and after every move to another page, the focus goes to the new page's h1 (docs/decisions.md
 * "Accessibility"): a screen reader reads where it arrived, and Tab continues in the page. Not on the app's first
 * load (react-router's first location has the key "default"), where the browser's own start (the skip link first) is
 * kept. The page may draw its h1 a moment later (a lazy screen): the h1 is awaited.
 */
function useFocusPageHeading(pathname: string, key: string) {
  useEffect(() => {
    if (key === 'default') return;
    const main = document.getElementById('main-content');
    if (!main) return;
    const focusHeading = () => {
      const h1 = main.querySelector<HTMLElement>('h1');
      if (!h1) return false;
      if (!h1.hasAttribute('tabindex')) h1.setAttribute('tabindex', '-1');
      h1.focus();
      return true;
    };
    if (focusHeading()) return;
    const observer = new MutationObserver(() => {
      if (focusHeading()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    return () => observer.disconnect();
    // Only a move to another page (not a filter in the query string) moves the focus.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);
}

/** The page's name for the browser tab: its sidebar label (Profile has none in the sidebar). */
function pageLabel(pathname: string): string | null {
  if (pathname === '/' || pathname === '') return 'Dashboard';
  if (pathname === '/profile') return 'Profile';
  return NAV.find((e) => e.path === pathname)?.label ?? null;
}

function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const computed = useComputedColorScheme('light');
  const next = computed === 'dark' ? 'light' : 'dark';
  return (
    <Tooltip label={`Switch to ${next} theme`}>
      <ActionIcon variant="default" size="lg" aria-label={`Switch to ${next} theme`} onClick={() => setColorScheme(next)}>
        {computed === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * The signed-in layout: 250 px sidebar, top bar with the user menu, and the page. `headerActions` are the top bar's
 * controls before the theme toggle (the notification bell, composed in app/signed-in.tsx with its feature's data).
 */
export function AppLayout({ headerActions }: { headerActions?: ReactNode }) {
  const { user, role, logout } = useAuth();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const navigate = useNavigate();
  const { app_name } = usePublicSettings();
  useDocumentTitle(pageLabel(location.pathname));
  useEffect(installRowFocusReturn, []);
  useFocusPageHeading(location.pathname, location.key);
  if (!user) return null;
  const entries = navFor(role);
  const isActive = (path: string) => location.pathname === path || (path === '/dashboard' && location.pathname === '/');

  const onLogout = async () => {
    await logout();
    void navigate('/login', { replace: true });
  };

  return (
    <AppShell header={{ height: 60 }} navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="lg">
      <Anchor href="#main-content" className="skip-link" onClick={skipToMain}>
        Skip to main content
      </Anchor>
      <AppShell.Header>
        {/* One line at every width: the title gives way (truncated) to the bell, the theme toggle and the user menu. */}
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" miw={0} style={{ flex: 1 }}>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Text fw={700} size="lg" truncate="end" data-testid="app-title">
              {app_name}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {headerActions}
            <ColorSchemeToggle />
            <Menu position="bottom-end" width={200}>
              <Menu.Target>
                {/* Named by what it shows (initials and name; the initials alone at phone width): no aria-label
                    that differs from the visible text (axe label-content-name-mismatch). */}
                <UnstyledButton data-testid="user-menu">
                  <Group gap={8}>
                    <Avatar color="blue" radius="xl" size="sm">
                      {user.first_name[0]}
                      {user.last_name[0]}
                    </Avatar>
                    <Text size="sm" fw={500} visibleFrom="xs">
                      {user.first_name} {user.last_name}
                    </Text>
                    <IconChevronDown size={14} aria-hidden />
                  </Group>
                </UnstyledButton>
              </Menu.Target>
              <Menu.Dropdown>
                <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} />}>
                  Profile
                </Menu.Item>
                <Menu.Item component={Link} to="/notifications" leftSection={<IconBell size={16} />}>
                  Notifications
                </Menu.Item>
                <Menu.Divider />
                <Menu.Item color="red" leftSection={<IconLogout size={16} />} onClick={() => void onLogout()}>
                  Logout
                </Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="sm" aria-label="Main navigation">
        <AppShell.Section mb="sm">
          <Stack gap={4} px="xs" py="xs" data-testid="sidebar-header">
            <Badge variant="light" size="lg">
              {role}
            </Badge>
            {user.brokerage_name && (
              <Text size="sm" c="dimmed" truncate="end">
                {user.brokerage_name}
              </Text>
            )}
          </Stack>
        </AppShell.Section>
        <AppShell.Section grow component={ScrollArea}>
          {entries.map((e) => (
            <NavLink
              key={e.path}
              component={Link}
              to={e.path}
              label={e.label}
              leftSection={<e.icon size={18} stroke={1.6} />}
              active={isActive(e.path)}
              aria-current={isActive(e.path) ? 'page' : undefined}
              onClick={close}
            />
          ))}
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main id="main-content" tabIndex={-1} style={{ outline: 'none' }}>
        <Suspense
          fallback={
            <Center py="xl">
              <Loader />
            </Center>
          }
        >
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
