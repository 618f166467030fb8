package io.macrodb.runtime.engine.h2;

import io.macrodb.runtime.capture.CapturedTable;
import org.h2.engine.Database;
import org.h2.engine.SessionLocal;
import org.h2.index.Index;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.db.MVPrimaryIndex;
import org.h2.mvstore.db.MVTable;
import org.h2.result.SearchRow;
import org.h2.table.Table;
import org.h2.table.TableType;
import org.h2.value.VersionedValue;

import java.util.Arrays;

/**
 * Which captured table's rows each of H2's maps holds, by map id: an undo log record names its map by id only. A
 * table's rows live in its primary index's map; every other map (a secondary index, a temporary table, H2's LOB
 * storage) holds nothing MacroDB captures. Read from the database's tables again whenever its schema has changed
 * since ({@code Database.getModificationMetaId}): a new table has new maps, a renamed one another key.
 */
final class H2TableMaps {

    /** The rows of one table: its catalog key and its primary index's map, whose values are the stored rows. */
    static final class Rows {
        private final String tableKey;
        private final MVMap<Long, VersionedValue<SearchRow>> map;

        Rows(String tableKey, MVMap<Long, VersionedValue<SearchRow>> map) {
            this.tableKey = tableKey;
            this.map = map;
        }

        String tableKey() {
            return tableKey;
        }

        /** The row stored under {@code key} now as the writing transaction sees it (its own change), or null. */
        Object current(Object key) {
            VersionedValue<SearchRow> value = map.get(key);
            return value == null ? null : value.getCurrentValue();
        }
    }

    private Rows[] byMapId = new Rows[0];
    private long readAtMetaId = -1;

    /** Reads the tables again if the schema changed since they were read; called once before each statement's log. */
    void refresh(SessionLocal session) {
        Database database = session.getDatabase();
        long metaId = database.getModificationMetaId();
        if (metaId != readAtMetaId) {
            read(session, database);
            readAtMetaId = metaId;
        }
    }

    /** The captured table whose rows map {@code mapId} is, or null (as of the last {@link #refresh}). */
    Rows rows(int mapId) {
        return mapId < byMapId.length ? byMapId[mapId] : null;
    }

    private void read(SessionLocal session, Database database) {
        Rows[] read = new Rows[0];
        for (Table table : database.getAllTablesAndViews()) {
            if (!(table instanceof MVTable mv) || mv.isTemporary() || mv.getTableType() != TableType.TABLE
                    || H2Engine.isOwnSchema(mv.getSchema().getName())) {
                continue;
            }
            Index scan = mv.getScanIndex(session);
            if (!(scan instanceof MVPrimaryIndex primary)) {
                continue;
            }
            MVMap<Long, VersionedValue<SearchRow>> map = primary.getMVMap();
            int id = map.getId();
            if (id >= read.length) {
                read = Arrays.copyOf(read, Math.max(id + 1, read.length * 2));
            }
            read[id] = new Rows(new CapturedTable.Name(mv.getSchema().getName(), mv.getName()).key(), map);
        }
        byMapId = read;
    }
}
