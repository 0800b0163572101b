import { Link } from 'wouter';
import { ArrowRight, Check, LayoutGrid, ShoppingBag, Store, Truck, type LucideIcon } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '../../components/ui/card';
import { signIn } from '../../lib/navigation';
import { useDocumentTitle } from '../../lib/use-document-title';
import { addProductToCart } from '../../features/cart/add-to-cart';
import { PublicLayout } from '../layouts/public-layout';
import { FeaturedStrip } from './landing-parts';
import { Suspense } from '../../components/suspense';

interface Step {
  icon: LucideIcon;
  title: string;
  description: string;
  points: string[];
  testId: string;
}

const STEPS: Step[] = [
  {
    icon: ShoppingBag,
    title: 'Shop as a Buyer',
    description:
      'Browse products from sellers in your area, add what you need to your cart and check out in a few steps.',
    points: [
      'Search by name and filter by category',
      'Delivery to your door, by the seller, or pickup',
      'Follow every order from placed to delivered',
    ],
    testId: 'card-step-buyer',
  },
  {
    icon: Store,
    title: 'Sell Your Products',
    description:
      'List your goods with photos, stock and delivery options, and reach customers close to you without running your own shop site.',
    points: [
      'Offer pickup on your own weekly schedule',
      'Deliver yourself or let our drivers do it',
      'Get paid out securely after each completed order',
    ],
    testId: 'card-step-seller',
  },
  {
    icon: Truck,
    title: 'Deliver & Earn',
    description:
      'Use your vehicle to deliver orders in your neighbourhood. Get verified once, then pick the deliveries that suit you.',
    points: [
      'See available orders near you and accept with a tap',
      'Keep 90% of every delivery fee',
      'Earnings paid to your account after each drop-off',
    ],
    testId: 'card-step-driver',
  },
];

/**
 * The signed-out home (docs/rules/screens-buyer.md, Routes and headers). Every start button signs in;
 * Browse Products and the featured strip lead a visitor into the catalog without an account.
 */
export function LandingPage() {
  useDocumentTitle(undefined);

  return (
    <PublicLayout contained={false}>
      <section
        aria-labelledby="hero-heading"
        className="relative flex h-[500px] items-center overflow-hidden bg-gradient-to-br from-hero-from to-hero-to text-white"
      >
        <HeroPattern />
        <div className="relative mx-auto w-full max-w-7xl px-4 sm:px-6">
          <div className="max-w-2xl">
            <h1 id="hero-heading" className="text-3xl font-bold tracking-tight text-balance sm:text-5xl">
              Fast &amp; Reliable Delivery Marketplace
            </h1>
            <p className="mt-4 text-base text-white/90 sm:mt-6 sm:text-xl">
              Shop from local sellers and get products delivered to your door. Join as a seller or earn money
              as a delivery driver.
            </p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Button
                size="lg"
                onClick={() => signIn()}
                className="bg-white text-emerald-800 hover:bg-emerald-50"
              >
                <ShoppingBag aria-hidden="true" />
                Start Shopping
              </Button>
              <Button
                size="lg"
                variant="outline"
                onClick={() => signIn({ intent: 'driver' })}
                className="border-white/80 bg-transparent text-white hover:bg-white/10 hover:text-white"
              >
                <Truck aria-hidden="true" />
                Become a Driver
              </Button>
            </div>
            <Link
              href="/products"
              className="mt-5 inline-flex items-center gap-2 rounded-sm font-medium text-white underline-offset-4 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-white"
            >
              <LayoutGrid className="size-4" aria-hidden="true" />
              Browse without an account
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
          </div>
        </div>
      </section>

      <section
        aria-labelledby="featured-heading"
        className="mx-auto max-w-7xl px-4 pt-12 sm:px-6 sm:pt-16"
        data-testid="section-featured-products"
      >
        <div className="mb-6 flex flex-col gap-1">
          <h2 id="featured-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
            Featured Products
          </h2>
          <p className="text-muted-foreground">
            Fresh from sellers near you. Open one, or add it to your cart.
          </p>
        </div>
        <Suspense
          fallback={
            <p role="status" className="py-10 text-center text-muted-foreground">
              Loading products...
            </p>
          }
        >
          <FeaturedStrip onAdd={addProductToCart} />
        </Suspense>
      </section>

      <section aria-labelledby="how-heading" className="mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-24">
        <div className="mx-auto max-w-2xl text-center">
          <h2 id="how-heading" className="text-3xl font-bold tracking-tight sm:text-4xl">
            How It Works
          </h2>
          <p className="mt-4 text-muted-foreground">
            One marketplace, three ways to take part. Pick the one that fits you, or do all three with the
            same account.
          </p>
        </div>
        <ul className="mt-12 grid gap-6 md:grid-cols-3">
          {STEPS.map((step) => (
            <li key={step.title} className="flex">
              <Card className="flex w-full flex-col" data-testid={step.testId}>
                <CardHeader>
                  <span className="mb-2 inline-flex size-12 items-center justify-center rounded-xl bg-accent text-accent-foreground">
                    <step.icon className="size-6" aria-hidden="true" />
                  </span>
                  <CardTitle>{step.title}</CardTitle>
                </CardHeader>
                <CardContent className="flex flex-1 flex-col gap-4">
                  <p className="text-muted-foreground">{step.description}</p>
                  <ul className="mt-auto flex flex-col gap-2 text-sm">
                    {step.points.map((point) => (
                      <li key={point} className="flex gap-2">
                        <Check className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                        <span>{point}</span>
                      </li>
                    ))}
                  </ul>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="cta-heading" className="border-t bg-muted/50">
        <div className="mx-auto flex max-w-3xl flex-col items-center px-4 py-16 text-center sm:px-6">
          <h2 id="cta-heading" className="text-2xl font-bold tracking-tight sm:text-3xl">
            Ready to get started?
          </h2>
          <p className="mt-3 text-muted-foreground">
            Sign in or create an account to start shopping, selling or delivering today.
          </p>
          <Button size="lg" className="mt-8" onClick={() => signIn()}>
            Get Started Now
            <ArrowRight aria-hidden="true" />
          </Button>
        </div>
      </section>
    </PublicLayout>
  );
}

/** Soft decorative shapes behind the hero text (inline SVG: no request, no inline style). */
function HeroPattern() {
  return (
    <svg
      aria-hidden="true"
      className="absolute inset-0 size-full opacity-15"
      preserveAspectRatio="xMidYMid slice"
      viewBox="0 0 800 500"
    >
      <circle cx="700" cy="80" r="180" fill="currentColor" opacity="0.35" />
      <circle cx="620" cy="460" r="120" fill="currentColor" opacity="0.25" />
      <path
        d="M-20 420 C 160 340, 300 480, 480 380 S 760 300, 840 360"
        fill="none"
        stroke="currentColor"
        strokeWidth="3"
        strokeDasharray="10 14"
      />
    </svg>
  );
}
