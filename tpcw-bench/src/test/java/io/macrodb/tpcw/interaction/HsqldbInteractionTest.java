package io.macrodb.tpcw.interaction;

/** Every interaction on HSQLDB alone (its default, lock-based transaction model). */
class HsqldbInteractionTest extends AbstractInteractionTest {

    @Override
    String target() {
        return "hsqldb";
    }
}
