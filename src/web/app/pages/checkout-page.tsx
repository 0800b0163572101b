import { Link } from 'wouter';
import { ShoppingCart } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { Card, CardContent } from '../../components/ui/card';
import { PageHeading } from '../../components/page-heading';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useCart } from '../../features/cart/use-cart';
import { AppLayout } from '../layouts/app-layout';

/** /checkout (spec buyer §2 Checkout). With an empty cart: "Cart is Empty". */
export function CheckoutPage() {
  useDocumentTitle('Checkout');
  const { items } = useCart();

  return (
    <AppLayout>
      <PageHeading title="Checkout" />
      {items.length === 0 ? (
        <Card className="mx-auto max-w-md">
          <CardContent className="flex flex-col items-center gap-4 p-8 text-center">
            <ShoppingCart className="size-12 text-muted-foreground" aria-hidden="true" />
            <h2 className="text-xl font-semibold">Cart is Empty</h2>
            <p className="text-muted-foreground">Add some products to your cart before checking out.</p>
            <Button asChild>
              <Link href="/" data-testid="link-continue-shopping">
                Continue Shopping
              </Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <Button asChild variant="outline">
          <Link href="/cart" data-testid="link-back-to-cart">
            Back to Cart
          </Link>
        </Button>
      )}
    </AppLayout>
  );
}
