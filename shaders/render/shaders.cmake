# The renderer's shaders (src/render/): the opaque set and its shadow map, particle quads (three
# compositing variants), mesh particles, the draw-argument and sort-key passes, the OIT resolve
# and the tonemapper.
mote_shader(NAME render/opaque.vert SOURCE render/opaque.vert)
mote_shader(NAME render/opaque.frag SOURCE render/opaque.frag)
mote_shader(NAME render/shadow.vert SOURCE render/shadow.vert)
mote_shader(NAME render/particle_quad.vert SOURCE render/particle_quad.vert)
mote_shader(NAME render/particle_quad_wboit.frag SOURCE render/particle_quad.frag)
mote_shader(NAME render/particle_quad_sorted.frag SOURCE render/particle_quad.frag DEFINES RASTER_SORTED=1)
mote_shader(NAME render/particle_quad_avboit.frag SOURCE render/particle_quad.frag DEFINES RASTER_AVBOIT=1)
mote_shader(NAME render/ribbon.vert SOURCE render/ribbon.vert)
mote_shader(NAME render/ribbon_wboit.frag SOURCE render/particle_quad.frag DEFINES RASTER_RIBBON=1)
mote_shader(NAME render/ribbon_sorted.frag SOURCE render/particle_quad.frag DEFINES RASTER_SORTED=1 RASTER_RIBBON=1)
mote_shader(NAME render/ribbon_avboit.frag SOURCE render/particle_quad.frag DEFINES RASTER_AVBOIT=1 RASTER_RIBBON=1)
mote_shader(NAME render/mesh_particle.vert SOURCE render/mesh_particle.vert)
mote_shader(NAME render/mesh_particle_shadow.vert SOURCE render/mesh_particle_shadow.vert)
mote_shader(NAME render/draw_args SOURCE render/draw_args.comp)
mote_shader(NAME render/sort_keys SOURCE render/sort_keys.comp)
mote_shader(NAME render/wboit_resolve SOURCE render/wboit_resolve.comp)
# AVBOIT, the raster path's volume-based OIT (src/render/avboit_volume.cpp).
mote_shader(NAME render/avboit_occupancy SOURCE render/avboit_occupancy.comp)
mote_shader(NAME render/avboit_splat SOURCE render/avboit_splat.comp)
mote_shader(NAME render/avboit_integrate SOURCE render/avboit_integrate.comp)
mote_shader(NAME render/tonemap SOURCE render/tonemap.comp)
# The compute draw path (src/render/particle_compute_path.cpp): bin, tile ranges, per-tile blend.
mote_shader(NAME render/tile_setup SOURCE render/tile_setup.comp)
mote_shader(NAME render/tile_bin SOURCE render/tile_bin.comp)
mote_shader(NAME render/tile_ranges SOURCE render/tile_ranges.comp)
mote_shader(NAME render/tile_blend SOURCE render/tile_blend.comp)
# The ribbon build (src/render/ribbon_pass.cpp): sort keys, points, links, pieces.
mote_shader(NAME render/ribbon_keys SOURCE render/ribbon_keys.comp)
mote_shader(NAME render/ribbon_points SOURCE render/ribbon_points.comp)
mote_shader(NAME render/ribbon_links SOURCE render/ribbon_links.comp)
mote_shader(NAME render/ribbon_pieces SOURCE render/ribbon_pieces.comp)
# The particle-light selection (src/render/particle_light_pass.cpp): candidates, then the list.
mote_shader(NAME render/particle_lights_candidates SOURCE render/particle_lights_candidates.comp)
mote_shader(NAME render/particle_lights_select SOURCE render/particle_lights_select.comp)
mote_shader(NAME render/particle_lights_bin SOURCE render/particle_lights_bin.comp)
