package io.macrodb.tpcw.interaction;

/** Every interaction on H2 alone. */
class H2InteractionTest extends AbstractInteractionTest {

    @Override
    String target() {
        return "h2";
    }
}
