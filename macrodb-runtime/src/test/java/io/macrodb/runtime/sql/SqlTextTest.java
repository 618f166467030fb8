package io.macrodb.runtime.sql;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SqlTextTest {

    @Test
    void commentsBecomeOneBlankOutsideQuotesOnly() {
        assertEquals("DROP TRIGGER    \n x\n;", SqlText.withoutComments("DROP TRIGGER /* a */ -- b\n x\n;"));
        assertEquals("SELECT '/* kept */', \"--kept\"  ",
                SqlText.withoutComments("SELECT '/* kept */', \"--kept\" /* unclosed"));
        assertEquals("'it''s -- kept'", SqlText.withoutComments("'it''s -- kept'"));
    }

    /** H2's $$ strings and backtick names are text too, but not the $$ inside a name; block comments nest (H2). */
    @Test
    void everyQuotedFormIsTextAndBlockCommentsNest() {
        assertEquals("SELECT $$--$$, NEXT VALUE FOR s", SqlText.withoutComments("SELECT $$--$$, NEXT VALUE FOR s"));
        assertEquals("SELECT 1 AS `x--`,   2", SqlText.withoutComments("SELECT 1 AS `x--`, /* c */ 2"));
        assertEquals("  SET AUTOCOMMIT TRUE", SqlText.withoutComments("/* /* */ */ SET AUTOCOMMIT TRUE"));
        assertTrue(SqlText.hasSecondStatement("INSERT INTO t$$ VALUES (1); CREATE TABLE z (a INT)"));
        assertFalse(SqlText.hasSecondStatement("CREATE ALIAS f AS $$ int f() { return 1; } $$"));
        assertEquals("SELECT $$    $$, `  `", SqlText.withoutQuotedText("SELECT $$ab c$$, `de`"));
        assertTrue(SqlText.hasSecondStatement("SELECT 1 // '\n; CREATE TABLE z (a INT)")); // H2's line comment
        assertTrue(SqlText.hasNestedComment("/* /* */ */ SELECT 1"));
        assertEquals(2, SqlText.parameterCount("{? = call f(?)}"));
        assertEquals(1, SqlText.parameterCount("SELECT '?', \"?\", ? /* ? */ -- ?"));
        assertEquals(3, SqlText.parameterCount("SELECT ?1, ?3, ?1"));
        assertFalse(SqlText.hasNestedComment("/* a */ SELECT '/* /*' -- /*\n"));
    }

    @Test
    void blanksAndTrailingSemicolonsGoOutsideQuotesOnly() {
        assertEquals("SELECTa,'b c'FROM\"T 1\"", SqlText.withoutBlanks(" SELECT a,\n 'b c' FROM \"T 1\" ;;"));
        assertEquals("';'", SqlText.withoutBlanks("';'"));
    }

    @Test
    void quotedTextIsBlankedWhereItStands() {
        String sql = "SELECT 'nextval(s)', \"RAND\" FROM t WHERE a = 'it''s'";
        String blanked = SqlText.withoutQuotedText(sql);
        assertEquals(sql.length(), blanked.length());
        assertEquals("SELECT '          ', \"    \" FROM t WHERE a = '     '", blanked);
    }

    @Test
    void unicodeEscapedNamesAreDecoded() {
        assertEquals("DROP TRIGGER \"PUBLIC\".\"MACRODB_A\"",
                SqlText.withUnicodeNamesDecoded("DROP TRIGGER \"PUBLIC\".U&\"\\004DACRODB_A\""));
        assertEquals("DROP TRIGGER \"MACRODB_A\" ;",
                SqlText.withUnicodeNamesDecoded("DROP TRIGGER u&\"!004DACRODB_A\" UESCAPE '!' ;"));
        assertEquals("\"\uD83D\uDE00 \\ a\"\"b\"", SqlText.withUnicodeNamesDecoded("U&\"\\+01F600 \\\\ a\"\"b\""));
        String untouched = "SELECT 'U&\"\\0041\"', MENU&\"x\" FROM t -- U&\"\\0041\"";
        assertSame(untouched, SqlText.withUnicodeNamesDecoded(untouched));
        assertEquals("\"\\zz\"", SqlText.withUnicodeNamesDecoded("U&\"\\zz\""), "a malformed escape is kept");
    }

    @Test
    void aSecondStatementIsFoundOutsideQuotesCommentsAndBodies() {
        assertTrue(SqlText.hasSecondStatement("INSERT INTO t VALUES (1); DROP TABLE t"));
        assertFalse(SqlText.hasSecondStatement("INSERT INTO t VALUES (';x'); -- ; DROP\n /* ; y */ ;"));
        assertFalse(SqlText.hasSecondStatement("CREATE ALIAS f AS $$ int f() { return 1; } $$"));
    }

    @Test
    void theFirstWordSkipsCommentsAndParentheses() {
        assertEquals("SELECT", SqlText.firstWord("-- note\n /* x */ ((select 1))"));
        assertEquals("", SqlText.firstWord("/* only a comment"));
    }

    @Test
    void keywordsAndNamesAreReadOutsideParenthesesAndQuotes() {
        String sql = "CREATE TABLE \"a.b\".c (x INT DEFAULT 1) AS SELECT 'AS'";
        assertEquals(sql.indexOf(") AS") + 2, SqlText.topLevelKeyword(sql, "as", 0));
        assertEquals(sql.indexOf(" (x"), SqlText.nameEnd(sql, sql.indexOf('"')));
        assertEquals(sql.indexOf(") AS"), SqlText.closingParenthesis(sql, sql.indexOf('(')));
        assertFalse(SqlText.hasTopLevel("f(a, b) 'x,y'", ','));
        assertEquals("DELETE FROM t", SqlText.statement("  DELETE FROM t ; ; "));
        String modes = "ALTER TABLE `my t`.[T 2] ADD x";
        assertEquals(modes.indexOf(" ADD"), SqlText.nameEnd(modes, modes.indexOf('`')));
        assertEquals("ALTER TABLE `    `.[T 2]", SqlText.withoutQuotedText("ALTER TABLE `my t`.[T 2]"));
    }
}
