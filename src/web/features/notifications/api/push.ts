import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  notificationPreferencesSchema,
  vapidPublicKeySchema,
  type NotificationPreferences,
} from '@domain/push';
import { apiGet, apiSend } from '../../../lib/api-client';

/**
 * Web Push on this device and the user's switches (docs/decisions/0019-reaching-people.md, Push and
 * the installable app).
 */

const PREFERENCES_KEY = ['/api/push/preferences'] as const;

export function usePushPreferences() {
  return useQuery({
    queryKey: PREFERENCES_KEY,
    queryFn: async ({ signal }) =>
      notificationPreferencesSchema.parse(await apiGet(PREFERENCES_KEY[0], signal)),
  });
}

export function useSavePushPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (preferences: NotificationPreferences) =>
      notificationPreferencesSchema.parse(await apiSend('PUT', PREFERENCES_KEY[0], preferences)),
    onSuccess: (saved) => queryClient.setQueryData(PREFERENCES_KEY, saved),
  });
}

/** Whether this browser can receive push at all. */
export function pushSupported(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** This device's subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/**
 * Asks the browser's permission, subscribes with the server's public key and hands the server the
 * subscription. Answers the permission when it was not granted.
 */
export async function enablePush(): Promise<NotificationPermission> {
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission;
  const { publicKey } = vapidPublicKeySchema.parse(await apiGet('/api/push/public-key'));
  const registration = await navigator.serviceWorker.ready;
  const subscription =
    (await registration.pushManager.getSubscription()) ??
    (await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: base64UrlToBytes(publicKey),
    }));
  await apiSend('POST', '/api/push/subscriptions', subscription.toJSON());
  return permission;
}

/** Tells the server to forget this device, then unsubscribes it in the browser. */
export async function disablePush(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  try {
    await apiSend('DELETE', '/api/push/subscriptions', { endpoint: subscription.endpoint });
  } catch {
    // Already gone on the server (another account took this device over): unsubscribing is enough.
  }
  await subscription.unsubscribe();
}

function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
