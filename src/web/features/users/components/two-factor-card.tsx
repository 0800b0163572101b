import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ShieldCheck } from 'lucide-react';
import { RECOVERY_CODE_COUNT, TOTP_CODE_PATTERN, type TwoFactorSetup } from '@domain/two-factor';
import type { CurrentUser } from '@domain/users';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';
import { FormField } from '../../../components/ui/form-field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { fieldErrorsOf } from '../../../lib/api-client';
import { toastMutationError } from '../../../lib/mutation-errors';
import { formatDateTime } from '../../../lib/format';
import {
  useDisableTwoFactor,
  useEnableTwoFactor,
  useStartTwoFactorSetup,
  useTwoFactorStatus,
} from '../api/two-factor';

/**
 * The profile's Two-factor sign-in card, for local accounts only (docs/decisions/0024-two-factor-sign-in.md):
 * set up with an authenticator app (QR code or the key typed in), confirmed with a code; the
 * recovery codes shown once; removal with the password or a current code. An administrator who must
 * turn it on is sent here and told why.
 */
export function TwoFactorCard({ user }: { user: CurrentUser }) {
  return user.localAccount ? <TwoFactorPanel /> : null;
}

/** `ABCD EFGH …`: the key in groups of four, easier to type into an app. */
function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

type Step = { kind: 'idle' } | { kind: 'setup'; setup: TwoFactorSetup } | { kind: 'codes'; codes: string[] };

function TwoFactorPanel() {
  const status = useTwoFactorStatus();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const start = useStartTwoFactorSetup();
  const enabled = status.data?.enabled ?? false;
  const setupRequired = status.data?.setupRequired ?? false;
  const cardRef = useRef<HTMLDivElement>(null);
  // An administrator sent here for the setup sees it first, also on a phone where the card is lower.
  useEffect(() => {
    if (setupRequired) cardRef.current?.scrollIntoView({ block: 'start' });
  }, [setupRequired]);

  const begin = () =>
    start.mutate(undefined, {
      onSuccess: (setup) => setStep({ kind: 'setup', setup }),
      onError: (error) => toastMutationError(error, 'Failed to start two-factor setup'),
    });

  return (
    <Card ref={cardRef} className="scroll-mt-24" role="region" aria-labelledby="two-factor-title">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle as="h2" id="two-factor-title">
            Two-factor sign-in
          </CardTitle>
          {status.data ? (
            <Badge variant={enabled ? 'success' : 'secondary'}>{enabled ? 'On' : 'Off'}</Badge>
          ) : null}
        </div>
        <CardDescription>
          After your password, signing in asks for a code from an authenticator app on your phone.
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {setupRequired && step.kind !== 'codes' ? (
          <p
            role="alert"
            className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
          >
            Administrators must use two-factor sign-in. Set it up to use the admin pages again.
          </p>
        ) : null}
        {status.isError ? (
          <p className="text-sm text-destructive">Failed to load two-factor sign-in.</p>
        ) : step.kind === 'setup' ? (
          <SetupForm
            setup={step.setup}
            onEnabled={(codes) => setStep({ kind: 'codes', codes })}
            onCancel={() => setStep({ kind: 'idle' })}
          />
        ) : step.kind === 'codes' ? (
          <RecoveryCodes codes={step.codes} onDone={() => setStep({ kind: 'idle' })} />
        ) : !status.data ? null : enabled ? (
          <EnabledView enabledAt={status.data.enabledAt} codesLeft={status.data.recoveryCodesLeft} />
        ) : (
          <div>
            <Button type="button" onClick={begin} disabled={start.isPending}>
              <ShieldCheck aria-hidden="true" />
              {start.isPending ? 'Starting...' : 'Set up two-factor sign-in'}
            </Button>
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function SetupForm({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetup;
  onEnabled: (codes: string[]) => void;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const enable = useEnableTwoFactor();
  const inputRef = useRef<HTMLInputElement>(null);
  const keyId = useId();

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = code.replace(/\s+/g, '');
    if (!TOTP_CODE_PATTERN.test(typed)) {
      setError('Enter the 6-digit code from the app');
      inputRef.current?.focus();
      return;
    }
    setError(undefined);
    enable.mutate(typed, {
      onSuccess: ({ recoveryCodes }) => {
        toast({ title: 'Two-factor sign-in is on' });
        onEnabled(recoveryCodes);
      },
      onError: (failure) => {
        const fields = fieldErrorsOf(failure);
        if (fields?.code) {
          setError(fields.code);
          inputRef.current?.focus();
        } else toastMutationError(failure, 'Failed to turn on two-factor sign-in');
      },
    });
  };

  return (
    <div className="flex flex-col gap-4" data-testid="two-factor-setup">
      <ol className="flex list-decimal flex-col gap-1 pl-5 text-sm">
        <li>Open an authenticator app on your phone and scan this QR code.</li>
        <li>Enter the 6-digit code the app shows to turn on two-factor sign-in.</li>
      </ol>
      <div className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
        {/* A white square in both themes: scanners read dark modules on light. */}
        <img
          src={setup.qrCode}
          alt="QR code for your authenticator app"
          width={176}
          height={176}
          className="size-44 shrink-0 rounded-lg border bg-white p-1"
        />
        <div className="flex min-w-0 flex-col gap-1">
          <p id={keyId} className="text-sm text-muted-foreground">
            Cannot scan it? Enter this key in the app:
          </p>
          <code
            aria-labelledby={keyId}
            className="rounded-md bg-muted px-2 py-1 font-mono text-sm break-all select-all"
            data-testid="text-two-factor-secret"
          >
            {groupSecret(setup.secret)}
          </code>
        </div>
      </div>
      <form
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-4"
        aria-label="Turn on two-factor sign-in"
      >
        <FormField id="two-factor-setup-code" label="Code from the app" error={error}>
          {(control) => (
            <Input
              {...control}
              ref={inputRef}
              inputMode="numeric"
              autoComplete="one-time-code"
              className="max-w-40 font-mono tracking-widest"
              value={code}
              onChange={(event) => setCode(event.target.value)}
            />
          )}
        </FormField>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={enable.isPending}>
            {enable.isPending ? 'Checking...' : 'Turn On'}
          </Button>
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const copy = () =>
    navigator.clipboard.writeText(codes.join('\n')).then(
      () => toast({ title: 'Recovery codes copied' }),
      () => toast({ title: 'Failed to copy the codes', variant: 'destructive' }),
    );
  return (
    <div className="flex flex-col gap-3" data-testid="two-factor-recovery-codes">
      <p className="text-sm font-medium">Save your recovery codes now: they are shown only once.</p>
      <p className="text-sm text-muted-foreground">
        If you lose your phone, each of these {RECOVERY_CODE_COUNT} codes signs you in once instead of a code
        from the app.
      </p>
      <ul className="grid grid-cols-2 gap-x-4 gap-y-1 rounded-lg bg-muted p-3 font-mono text-sm sm:grid-cols-3">
        {codes.map((code) => (
          <li key={code} data-testid="text-recovery-code">
            {code}
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={() => void copy()}>
          Copy Codes
        </Button>
        <Button type="button" onClick={onDone}>
          I Saved Them
        </Button>
      </div>
    </div>
  );
}

function EnabledView({ enabledAt, codesLeft }: { enabledAt: string | null; codesLeft: number }) {
  const [proof, setProof] = useState('');
  const [error, setError] = useState<string | undefined>();
  const disable = useDisableTwoFactor();
  const inputRef = useRef<HTMLInputElement>(null);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!proof) {
      setError('Enter your password or a code from the app');
      inputRef.current?.focus();
      return;
    }
    setError(undefined);
    // A password has at least 8 characters: 6 digits are a code of the app.
    const typed = proof.replace(/\s+/g, '');
    const body = TOTP_CODE_PATTERN.test(typed) ? { code: typed } : { password: proof };
    disable.mutate(body, {
      onSuccess: () => {
        setProof('');
        toast({ title: 'Two-factor sign-in is off' });
      },
      onError: (failure) => {
        const fields = fieldErrorsOf(failure);
        const message = fields?.code ?? fields?.password;
        if (message) {
          setError(message);
          inputRef.current?.focus();
        } else toastMutationError(failure, 'Failed to turn off two-factor sign-in');
      },
    });
  };

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm">
        {enabledAt ? `On since ${formatDateTime(enabledAt)}. ` : ''}
        {codesLeft === 1 ? '1 recovery code left.' : `${codesLeft} recovery codes left.`}
      </p>
      <form
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-4"
        aria-label="Turn off two-factor sign-in"
      >
        <FormField id="two-factor-off-proof" label="Password or a code from the app" error={error}>
          {(control) => (
            <Input
              {...control}
              ref={inputRef}
              type="password"
              autoComplete="current-password"
              value={proof}
              onChange={(event) => setProof(event.target.value)}
            />
          )}
        </FormField>
        <div>
          <Button type="submit" variant="outline" disabled={disable.isPending}>
            {disable.isPending ? 'Turning off...' : 'Turn Off Two-Factor Sign-In'}
          </Button>
        </div>
      </form>
    </div>
  );
}
